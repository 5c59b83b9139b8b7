// A frontend project outside this repository, as a new user has one: the run's consumer
// project with the three packed packages installed together (test/support/pack.ts;
// test/package/consumer/ copied in), which runs `npx authsvc-api mock` and
// `npx authsvc-api serve` on free ports (both packages link that bin), calls five
// operations from a page of another origin in headless Chromium against the mock and then
// the server (only the base URL changes), sends the same requests to the MSW handlers and to
// that mock and compares the answers (parity/parity.test.ts, run by the project's vitest),
// fetches through TanStack Query hooks built with openapi-react-query over the client in the
// page, and bundles the client alone with esbuild to show what a frontend ships (size printed;
// no Express, Prism, Ajv or pino). Its unit-test matrix: frontend-matrix.test.ts. What it runs depends on the Node
// line, so CI runs it on each; its type checks (consumer-types.test.ts) do not.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Footprint } from "../../bench/footprint/regions.js";
import { appA } from "../support/demo.js";
import { frontendProject, packageNames, packed, run, scratch } from "../support/pack.js";
import { printedUrl } from "../support/printed-url.js";
import { chromiumMissing, chromiumPath, realPart } from "../support/real-parts.js";

/** Why the page tests are skipped here (a contributor's machine without Chromium); under CI its absence fails. */
const noBrowser = realPart(chromiumMissing());

let project: string;
let mock: Started;
let server: Started;
let page: { url: string; close: () => void };
let browser: Browser;
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  url: string;
}

/** Kills a child started in its own process group (npx, sh and node alike). */
function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.exitCode === null && child.pid) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}
process.once("exit", () => children.forEach((child) => kill(child)));

/** Runs `npx authsvc-api <args>` in the consumer and resolves with the /v1 URL it prints. */
function npxAuthsvc(args: string[]): Promise<Started> {
  const child = spawn("npx", ["--no-install", "authsvc-api", ...args], {
    cwd: project,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "silent", CORS_ORIGINS: "" },
  });
  children.push(child);
  return printedUrl(child, `authsvc-api ${args[0]}`).url.then((url) => ({ child, url }));
}

/** Serves the page (an HTML file and its bundled script) on localhost: another origin than the API's 127.0.0.1. */
async function servePage(script: string): Promise<{ url: string; close: () => void }> {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>consumer</title><script type="module" src="/page.js"></script></head><body></body></html>`;
  const http: Server = createServer((req, res) => {
    if (req.url === "/page.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else res.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  await new Promise<void>((resolve) => http.listen(0, "localhost", resolve));
  return { url: `http://localhost:${(http.address() as AddressInfo).port}/`, close: () => http.close() };
}

/** esbuild over a consumer file, resolved in the consumer's node_modules, as its bundler would. */
async function bundle(entry: string, minify: boolean) {
  const result = await build({
    absWorkingDir: project,
    entryPoints: [entry],
    bundle: true,
    minify,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

beforeAll(async () => {
  project = await frontendProject();
  [mock, server] = await Promise.all([npxAuthsvc(["mock", "--port", "0"]), npxAuthsvc(["serve", "--port", "0"])]);
  page = await servePage((await bundle("src/page.ts", false)).code);
  if (noBrowser === undefined) browser = await chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
}, 1_200_000);

afterAll(async () => {
  await browser?.close();
  page?.close();
  for (const child of children) kill(child, "SIGTERM");
});

/** Opens the page and runs one of its entries (the five calls, or the TanStack Query prefetch) against `baseUrl` in the browser. */
async function callsFromBrowser(baseUrl: string, entry: "runCalls" | "runPrefetch" = "runCalls") {
  const tab = await browser.newPage();
  const failures: string[] = [];
  // Chromium logs every 4xx answer as a console error; the 404 asked for is expected.
  tab.on("console", (message) => {
    if (message.type() === "error" && !/status of 404/.test(message.text())) failures.push(message.text());
  });
  tab.on("pageerror", (error) => failures.push(error.message));
  try {
    await tab.goto(page.url, { waitUntil: "load" });
    // The callbacks run in the page, where globalThis is its window.
    await tab.waitForFunction((name) => typeof (globalThis as unknown as Record<string, unknown>)[name] === "function", entry);
    const results = await tab.evaluate(
      ([name, url, key, secret]) => (globalThis as unknown as Record<string, (u: string, k: string, s: string) => Promise<unknown>>)[name]!(url, key, secret),
      [entry, baseUrl, appA.apiKey, appA.apiSecret] as const,
    );
    return { results, failures, origin: new URL(tab.url()).origin };
  } finally {
    await tab.close();
  }
}

const expectedCalls = {
  widget: { status: 200, id: "wgt_5a3c8e1f7b92" },
  webhooks: { ids: expect.arrayContaining(["whk_3a7f1c9e5b2d"]) },
  smsProvider: { status: 200, id: "sms_9e4a1d7c3b2f" },
  notification: { status: 200, state: "PENDING" },
  missing: { status: 404, code: "not_found" },
};

describe("a frontend project with the packed package installed", () => {
  it("npx authsvc-api mock serves /v1/widgets/wgt_5a3c8e1f7b92 with 200", async () => {
    const response = await fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer ak_live_acme_4f9e2b7c1d8a6e3f" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { id: "wgt_5a3c8e1f7b92" } });
  });

  it.skipIf(noBrowser !== undefined)("a page of another origin calls five operations against the mock", async () => {
    const { results, failures, origin } = await callsFromBrowser(mock.url);
    expect(origin).not.toBe(new URL(mock.url).origin);
    expect(results).toEqual(expectedCalls);
    expect(failures).toEqual([]);
  });

  it.skipIf(noBrowser !== undefined)("the same page against npx authsvc-api serve, changing only the base URL", async () => {
    const { results, failures } = await callsFromBrowser(server.url);
    expect(results).toEqual(expectedCalls);
    expect(failures).toEqual([]);
  });

  it.skipIf(noBrowser !== undefined)("a QueryClient in the page fetches the widget with openapi-react-query's query options, against the mock", async () => {
    const { results, failures } = await callsFromBrowser(mock.url, "runPrefetch");
    expect(results).toEqual({ fetched: "wgt_5a3c8e1f7b92", cached: true });
    expect(failures).toEqual([]);
  });

  it("the MSW handlers answer what npx authsvc-api mock answers, request by request", async () => {
    const { stdout } = await run(join(project, "node_modules/.bin/vitest"), ["run", "parity/parity.test.ts"], {
      cwd: project,
      env: { ...process.env, CI: "1", MOCK_URL: mock.url },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => ({ stdout: `${error.stdout}\n${error.stderr}` }));
    const output = stripVTControlCharacters(stdout);
    console.log(
      output
        .split("\n")
        .filter((line) => line.startsWith("|"))
        .join("\n"),
    );
    expect(output).toMatch(/Tests\s+1 passed/);
  }, 120_000);

  it("bundles createApiClient alone, small and free of Express, Prism, Ajv and pino", async () => {
    const { code, inputs } = await bundle("src/client-only.ts", true);
    const bytes = Buffer.byteLength(code);
    const gzipped = gzipSync(code).length;
    console.log(`client bundle (esbuild, minified): ${bytes} B, ${gzipped} B gzipped; inputs: ${inputs.join(", ")}`);
    writeFileSync(join(scratch(), "client-bundle.js"), code);
    const heavy = inputs.filter((input) => /node_modules\/(express|express-openapi-validator|@stoplight|ajv|ajv-formats|pino|msw)\//.test(input));
    expect(heavy).toEqual([]);
    expect(code).not.toMatch(/prism|express|pino|ajv/i);
    expect(inputs.some((input) => input.includes("openapi-fetch"))).toBe(true);
    expect(bytes).toBeLessThan(20_000);
    // The figure the docs quote (written by npm run bench:footprint) is this bundle's, within 5%.
    const quoted = (JSON.parse(readFileSync(new URL("../../bench/footprint/figures.json", import.meta.url), "utf8")) as Footprint).clientBundle.bytes;
    expect(Math.abs(bytes - quoted) / quoted, `${bytes} B bundled, ${quoted} B quoted: rerun npm run bench:footprint`).toBeLessThanOrEqual(0.05);
  });

  it("installed nothing from this repository: each package came from its packed tarball", async () => {
    const tarballs = await packed();
    const installed = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
    const links = Object.entries<{ resolved?: string; link?: boolean }>(installed.packages).filter(([, entry]) => entry.link);
    expect(links).toEqual([]);
    for (const [key, name] of Object.entries(packageNames)) {
      const resolved: string = installed.packages[`node_modules/${name}`].resolved;
      expect(resolve(project, resolved.replace(/^file:/, ""))).toBe(tarballs[key as keyof typeof packageNames].tarball);
    }
  });
});

// Both command packages declare the bin `authsvc-api`; npm links one of them without a word
// (the last linked wins). Each copy runs its own commands and the other package's.
describe("the authsvc-api command with the mock and server packages installed together", () => {
  const copies = [packageNames.mock, packageNames.server];

  it("is linked once, to one of the two packages", () => {
    const target = readlinkSync(join(project, "node_modules/.bin/authsvc-api"));
    expect(copies.map((name) => `../${name}/dist/cli/authsvc-api.js`)).toContain(target);
  });

  it.each(copies)(
    "the copy in %s runs mock, serve, conformance and stubs",
    async (owner) => {
      const bin = join(project, "node_modules", owner, "dist/cli/authsvc-api.js");
      for (const [command, usage] of [
        ["mock", /^usage: authsvc-api mock /],
        ["serve", /^usage: authsvc-api serve /],
        ["conformance", /^usage: authsvc-api conformance /],
        ["stubs", /^usage: authsvc-api stubs /],
      ] as const) {
        const { stdout } = await run(process.execPath, [bin, command, "--help"], { cwd: project });
        expect(stdout).toMatch(usage);
      }
    },
    60_000,
  );
});
