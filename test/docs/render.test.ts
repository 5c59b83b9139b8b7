// `npm run docs` writes the docs site, a directory, and headless Chromium (Debian's package)
// reads it served alone by a static server sending its brotli copies (test/docs/static-server.ts),
// and opened from disk, as an integrator would. Checked here, on the built pages: every page
// readable with nothing outside the directory requested; the menu; each example of each
// operation chosen on the page and every language's sample (curl, JavaScript, Python, Go, the
// TypeScript client) copied from it and run against the mock, which must receive exactly that
// example's body and whose answer the sample must print; the server choice (demo keys on the
// mock, named placeholders on production); the console sending every operation × example
// with that operation's own credentials and getting a 2xx; axe-core with the console open and
// with search open at 390 and 1440 px in light and dark; the phone layout at 360–414 px (no
// horizontal overflow, every response status visible, no word of code broken); links; search;
// the Content-Security-Policy; the downloads (openapi.json, Postman, llms.txt and Markdown);
// the releases that changed each operation; the Clients section. Screenshots go to DOCS_SHOTS
// (/tmp/docs-shots/).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, copyFileSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { type Browser, type BrowserContextOptions, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations as operationTable } from "../../generated/operations.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { slug } from "../../scripts/docs/markdown.js";
import { mockServer } from "../../scripts/docs/page.js";
import { languages } from "../../scripts/docs/samples.js";
import { deref, doc, operations } from "../openapi/document.js";
import { appA } from "../support/demo.js";
import { chromiumArgs, chromiumMissing, chromiumPath, realPart } from "../support/real-parts.js";
import { readdressed, runGoSamples, runSample, runTypeScriptSamples } from "./run-sample.js";
import { serveDirectory, type StaticServer } from "./static-server.js";
import { codeBreaks, overflow, statusesHidden } from "./layout-checks.js";

// The page's globals inside page.evaluate (the project compiles without the DOM library).
declare const document: any, localStorage: any, sessionStorage: any;

const root = new URL("../../", import.meta.url).pathname;
/** Why the rendering is skipped here (a contributor's machine without Chromium); under CI its absence fails. */
const noBrowser = realPart(chromiumMissing());
const shots = process.env.DOCS_SHOTS ?? "/tmp/docs-shots";
const scratch = mkdtempSync(join(tmpdir(), "docs-"));
const site = join(scratch, "dist/docs");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const production = doc.servers.find((s: { url: string }) => s.url.startsWith("https:")).url as string;

// What the pages must show, read from the document.
const expected = operations().map(({ method, path, op }) => {
  const examples = op.requestBody
    ? Object.entries<object>(deref(op.requestBody).content["application/json"].examples ?? {}).map(([key, e]) => {
        const example = deref(e) as { value: unknown; summary?: string };
        return { key, summary: example.summary ?? key, value: example.value };
      })
    : [];
  const tag = op.tags[0] as string;
  return {
    method,
    path,
    operationId: op.operationId as string,
    summary: op.summary as string,
    tag,
    file: `${slug(tag)}.html`,
    route: `tag/${slug(tag)}/${method}${path}`,
    examples,
    responseType: operationTable[op.operationId as keyof typeof operationTable].responseType,
    statuses: Object.keys(op.responses),
    security: Object.keys(op.security[0]),
  };
});
const notifications = expected.find((e) => e.method === "POST" && e.path === "/notifications")!;
const guides = ["Getting started", "Clients", "Authentication", "Errors", "Limits", "Retries and idempotency", "Request ids", "Changelog", "Versions and deprecation"];
/** The page of each guide (`limits.html`), Getting started's being index.html. */
const guideFile = (title: string) => (title === "Getting started" ? "index.html" : `${slug(title)}.html`);
const pageFiles = [...guides.map(guideFile), ...new Set(expected.map((e) => e.file)), "models.html"];

let browser: Browser;
let server: StaticServer;
let mock: RunningMock;
/** A recording front of the mock: every request's method, path, headers and body, then the mock's answer. */
let front: Server;
let frontUrl = "";
const received: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string; status: number }[] = [];
const consoleErrors: string[] = [];
const outside: string[] = [];

/** A page that records console errors and refuses (and records) any request leaving the directory; the page's mock address reaches the test's mock. */
async function trackedPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, ...options });
  const tracked = await context.newPage();
  tracked.setDefaultTimeout(20_000);
  tracked.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${tracked.url()}: ${message.text()}`);
  });
  tracked.on("pageerror", (error) => consoleErrors.push(`${tracked.url()}: ${error.message}`));
  await tracked.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url) || url.startsWith("file:") || url.startsWith("data:")) return route.continue();
    // The console sends to the page's preset mock address; the test's mock listens elsewhere.
    if (url.startsWith(`${mockServer}/`)) return route.fulfill({ response: await route.fetch({ url: url.replace(mockServer, frontUrl) }) });
    outside.push(url);
    return route.abort();
  });
  return tracked;
}

beforeAll(async () => {
  if (noBrowser !== undefined) return;
  for (const shared of ["generated", "openapi", "node_modules", "scripts", "docs", "CHANGELOG.md"]) symlinkSync(join(root, shared), join(scratch, shared));
  copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
  const built = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile("npm", ["run", "-s", "docs"], { cwd: scratch }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
  expect(built.code, built.output).toBe(0);
  console.log(`npm run docs:\n${built.output}`);
  mkdirSync(shots, { recursive: true });
  server = await serveDirectory(site, { precompressed: true });
  mock = await startMock({ rateLimit: false, failedAuthLimit: false });
  front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = new URL(`${new URL(mock.url).origin}${req.url}`);
      const forward = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        received.push({ method: req.method!, path: req.url!, headers: req.headers, body: body.toString(), status: answer.statusCode! });
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => front?.close(resolve));
  await mock?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Opens an operation by its link and waits for its heading; the operation's section. */
async function open(on: Page, operation: (typeof expected)[number]): Promise<Locator> {
  await on.goto(`${server.url}${operation.file}#${operation.route}`);
  const section = on.locator(`section[id="${operation.route}"]`);
  await section.getByRole("heading", { name: operation.summary, exact: true }).waitFor();
  return section;
}

const shownSample = (section: Locator) => section.locator("pre.sample:not([hidden])").innerText();

async function inView(locator: Locator): Promise<boolean> {
  if (!(await locator.isVisible().catch(() => false))) return false;
  const viewport = locator.page().viewportSize()!;
  const box = await locator.boundingBox({ timeout: 1_000 }).catch(() => null);
  return box !== null && box.y >= 0 && box.y < viewport.height;
}

describe.skipIf(noBrowser !== undefined)("docs site (dist/docs/), served alone and from disk", () => {
  it("is a directory of its own: its pages and files, each with its .br and .gz, a Content-Security-Policy on every page and no inline script", () => {
    const all = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name]));
    const files = all(site).filter((f) => !/\.(br|gz)$/.test(f));
    for (const file of [
      ...pageFiles,
      "docs.js",
      "console.js",
      "console-data.js",
      "samples.js",
      "search.js",
      "search-index.js",
      "openapi.json",
      "favicon.svg",
      "llms.txt",
      "postman/collection.json",
    ]) {
      expect(files, file).toContain(file);
    }
    for (const file of files) {
      const raw = readFileSync(join(site, file));
      expect(brotliDecompressSync(readFileSync(join(site, `${file}.br`))).equals(raw), file).toBe(true);
      expect(gunzipSync(readFileSync(join(site, `${file}.gz`))).equals(raw), file).toBe(true);
    }
    for (const file of pageFiles) {
      const html = readFileSync(join(site, file), "utf8");
      expect(html, file).toContain('<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;'.replace(/&#39;/g, "'"));
      expect(html, file).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']https?:/);
      expect(html, file).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script is a file: the CSP allows no inline one
    }
  });

  it("shows every page without a script and makes no request outside its directory, served and from disk, with no console error", async () => {
    const requests: string[] = [];
    for (const base of [server.url, pathToFileURL(`${site}/`).href]) {
      const on = await trackedPage();
      on.on("request", (r) => requests.push(r.url()));
      for (const file of pageFiles) {
        await on.goto(`${base}${file}`, { waitUntil: "load" });
        await on.locator("h1").first().waitFor();
      }
      await on.context().close();
    }
    expect(requests.filter((r) => !r.startsWith(server.url) && !r.startsWith("file:") && !r.startsWith("data:"))).toEqual([]);
    // With scripts off the guides and an operation are all there (the console and search are what needs them).
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${server.url}${notifications.file}#${notifications.route}`);
    expect(await plain.locator(`section[id="${notifications.route}"] pre.sample`).first().innerText()).toContain(`${mockServer}/notifications`);
    expect(await plain.locator(".responses .status").allInnerTexts()).toEqual(notifications.statuses);
    // On a phone the Menu link opens the menu without a script too.
    await plain.setViewportSize({ width: 390, height: 844 });
    expect(await plain.getByRole("navigation", { name: "Contents" }).isVisible()).toBe(false);
    await plain.getByRole("link", { name: "Menu", exact: true }).click();
    await expect.poll(() => plain.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Getting started" }).isVisible()).toBe(true);
    await noScript.close();
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it("lists the guides, the seven tags and every operation in the menu, beside the content at 1440 px and behind Menu at 390 px", async () => {
    for (const width of [1440, 390]) {
      const on = await trackedPage({ viewport: { width, height: 844 } });
      await on.goto(server.url);
      const menu = on.getByRole("navigation", { name: "Contents" });
      if (width === 390) {
        expect(await menu.isVisible()).toBe(false);
        await on.getByRole("button", { name: "Menu" }).click();
        expect(await on.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("true");
      }
      for (const title of [...guides, ...new Set(expected.map((e) => e.tag)), ...expected.map((e) => e.summary)]) {
        await expect.poll(() => menu.getByRole("link", { name: title, exact: false }).first().isVisible(), { message: `${width}: ${title}` }).toBe(true);
      }
      if (width === 390) await on.screenshot({ path: join(shots, "390-menu.png") });
      await on.context().close();
    }
  }, 60_000);

  // Every example of every operation in every language: the text copied from the page, then run.
  const copied: { language: (typeof languages)[number]["id"]; operation: (typeof expected)[number]; example: string; body: unknown; text: string }[] = [];

  it("shows, for each example chosen in the picker (each by its summary), the sample in each language (copied for the next test)", async () => {
    const on = await trackedPage();
    for (const operation of expected) {
      const section = await open(on, operation);
      const examplePicker = section.locator("[data-example-picker]");
      if (operation.examples.length) {
        // The picker names each example by its summary.
        expect(await examplePicker.locator("option").allInnerTexts()).toEqual(operation.examples.map((e) => e.summary));
      } else expect(await examplePicker.count()).toBe(0);
      for (const language of languages) {
        await section.locator("[data-language-picker]").selectOption(language.id);
        for (const example of operation.examples.length ? operation.examples : [{ key: "", value: undefined, summary: "" }]) {
          if (example.key) await examplePicker.selectOption(example.key);
          const text = await shownSample(section);
          if (language.id !== "typescript") expect(text, `${operation.summary} ${language.id}`).toContain(mockServer.replace(/\/v1$/, "").replace("http://", ""));
          expect(text, `${operation.summary} ${language.id}`).toContain(appA.apiKey);
          expect(text).not.toMatch(/YOUR_/);
          copied.push({ language: language.id, operation, example: example.key, body: example.value, text: readdressed(text, mockServer, frontUrl) });
        }
      }
    }
    expect(copied.length).toBe(languages.length * expected.reduce((n, e) => n + Math.max(1, e.examples.length), 0));
    await on.context().close();
  }, 240_000);

  it("runs every copied sample against the mock: each prints the answer, and the mock receives the chosen example's body with the operation's credentials", async () => {
    expect(copied.length).toBeGreaterThan(0);
    const counts: Record<string, number> = {};
    const check = (sample: (typeof copied)[number], got: (typeof received)[number] | undefined) => {
      const what = `${sample.language} ${sample.operation.summary} ${sample.example}`;
      expect(got, what).toBeDefined();
      expect(got!.status, `${what}: ${got!.body}`).toBeLessThan(300);
      if (sample.body === undefined) expect(got!.body, what).toBe("");
      else expect(JSON.parse(got!.body), what).toEqual(sample.body);
      if (sample.operation.security.includes("bearerAuth")) expect(got!.headers.authorization, what).toBe(`Bearer ${appA.apiKey}`);
      else expect([got!.headers["x-api-key"], got!.headers["x-api-secret"], got!.headers.authorization], what).toEqual([appA.apiKey, appA.apiSecret, undefined]);
      counts[sample.language] = (counts[sample.language] ?? 0) + 1;
    };
    for (const sample of copied.filter((s) => s.language === "curl" || s.language === "javascript" || s.language === "python")) {
      const before = received.length;
      const printed = await runSample(sample.language as "curl" | "javascript" | "python", sample.text);
      expect(received.length - before, `${sample.language} ${sample.operation.summary} ${sample.example}`).toBe(1);
      check(sample, received.at(-1));
      // It prints the whole answer, not a summary of it (`[Object]`).
      expect(printed, `${sample.language} ${sample.operation.summary}`).toContain(sample.operation.responseType);
      expect(printed).not.toContain("[Object]");
    }
    const go = copied.filter((s) => s.language === "go");
    let before = received.length;
    const goPrinted = await runGoSamples(go.map((s) => s.text));
    expect(received.length - before).toBe(go.length);
    go.forEach((sample, i) => check(sample, received[before + i]));
    for (const operation of expected) expect(goPrinted).toContain(operation.responseType);
    const typescript = copied.filter((s) => s.language === "typescript");
    before = received.length;
    const tsPrinted = await runTypeScriptSamples(
      typescript.map((s) => s.text),
      join(scratch, "typescript-samples"),
      root,
      {},
    );
    expect(received.length - before).toBe(typescript.length);
    typescript.forEach((sample, i) => check(sample, received[before + i]));
    expect(tsPrinted.trim().split("\n").length).toBeGreaterThanOrEqual(typescript.length);
    console.log(
      `samples copied from the pages and run against the mock, all passing: ${Object.entries(counts)
        .map(([l, n]) => `${l} ${n}`)
        .join(", ")}`,
    );
  }, 300_000);

  it("on the production server, every sample and the console carry placeholders named by what they are, and no demo key", async () => {
    const on = await trackedPage();
    const section = await open(on, notifications);
    await on.locator("#server-picker").selectOption(production);
    for (const language of languages) {
      await section.locator("[data-language-picker]").selectOption(language.id);
      await expect.poll(() => shownSample(section), { message: language.id }).toContain("YOUR_API_SECRET");
      const text = await shownSample(section);
      expect(text, language.id).toContain("YOUR_API_KEY");
      expect(text, language.id).not.toContain(appA.apiKey);
      expect(text, language.id).not.toContain(appA.apiSecret);
      if (language.id === "python") expect(text).toContain("HTTPSConnection");
      else expect(text, language.id).toContain(language.id === "typescript" ? `"${production}"` : `${production}/notifications`);
    }
    await section.getByRole("button", { name: "Try it" }).click();
    const form = section.getByRole("form", { name: /Console/ });
    expect(await form.getByLabel("X-Api-Key (API key)").inputValue()).toBe("");
    expect(await form.getByLabel("X-Api-Key (API key)").getAttribute("placeholder")).toBe("YOUR_API_KEY");
    expect(await form.getByLabel("X-Api-Secret (API secret)").getAttribute("placeholder")).toBe("YOUR_API_SECRET");
    // Back on the mock: the demo keys again, in the samples and in the console.
    await on.locator("#server-picker").selectOption(mockServer);
    await expect.poll(() => form.getByLabel("X-Api-Key (API key)").inputValue()).toBe(appA.apiKey);
    await expect.poll(() => shownSample(section)).toContain(appA.apiSecret);
    await on.context().close();
  }, 90_000);

  it("sends every operation × example from its console to the mock with the operation's own credentials, and shows the 2xx", async () => {
    const sent: string[] = [];
    for (const width of [1440, 390]) {
      const on = await trackedPage({ viewport: { width, height: width === 1440 ? 1000 : 844 } });
      for (const operation of width === 1440 ? expected : [notifications]) {
        const section = await open(on, operation);
        await section.getByRole("button", { name: "Try it" }).click();
        const form = section.getByRole("form", { name: `Console: ${operation.method} ${operation.path}` });
        for (const example of operation.examples.length ? operation.examples : [{ key: "", value: undefined, summary: "" }]) {
          if (example.key) await section.locator("[data-example-picker]").selectOption(example.key);
          const before = received.length;
          await form.getByRole("button", { name: `Send ${operation.method} ${operation.path}` }).click();
          await expect
            .poll(
              () =>
                form
                  .locator(".console-status")
                  .innerText()
                  .catch(() => ""),
              { timeout: 20_000 },
            )
            .toMatch(/^2\d\d/);
          const got = received.at(-1)!;
          expect(received.length - before).toBe(1);
          expect(got.method).toBe(operation.method);
          if (example.value !== undefined) expect(JSON.parse(got.body)).toEqual(example.value);
          if (operation.security.includes("bearerAuth")) expect([got.headers.authorization, got.headers["x-api-key"]]).toEqual([`Bearer ${appA.apiKey}`, undefined]);
          else expect([got.headers["x-api-key"], got.headers["x-api-secret"], got.headers.authorization]).toEqual([appA.apiKey, appA.apiSecret, undefined]);
          expect(await form.locator("pre").last().innerText()).toContain(operation.responseType);
          sent.push(`${width} ${operation.method} ${operation.path}${example.key ? ` ${example.key}` : ""}: ${got.status}`);
        }
        if (operation === notifications) {
          await form.locator(".console-status").scrollIntoViewIfNeeded();
          await on.screenshot({ path: join(shots, `${width}-console-notifications.png`) });
        }
      }
      // Kept in memory only: not in the URL, not in any storage.
      expect(on.url()).not.toContain(appA.apiKey);
      const stored = await on.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
      expect(stored).not.toContain(appA.apiKey);
      await on.context().close();
    }
    console.log(`console sends (operation × example), statuses:\n${sent.join("\n")}`);
    expect(sent.length).toBe(expected.reduce((n, e) => n + Math.max(1, e.examples.length), 0) + notifications.examples.length);
  }, 240_000);

  /** axe-core's serious and critical violations where the page is now, in light then in dark. */
  async function severeAxe(on: Page, what: string): Promise<string[]> {
    await on.evaluate(axeSource);
    const found: string[] = [];
    for (const colorScheme of ["light", "dark"] as const) {
      await on.emulateMedia({ colorScheme });
      const violations = await on.evaluate(async () => {
        const result = await (
          globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
        ).axe.run();
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0]?.target.join(" ") }));
      });
      const severe = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      console.log(
        `axe ${what} ${colorScheme}: ${severe.reduce((n, v) => n + v.nodes, 0)} serious/critical nodes; lesser: ${JSON.stringify(violations.filter((v) => !severe.includes(v)).map((v) => `${v.id} (${v.impact}, ${v.nodes})`))}`,
      );
      found.push(...severe.map((v) => `${colorScheme}: ${v.id} (${v.nodes}) ${v.first}`));
    }
    await on.emulateMedia({ colorScheme: "light" });
    return found;
  }

  for (const width of [1440, 390]) {
    it(`axe-core at ${width} px, light and dark: no serious or critical violation on the landing page, an operation, with its console open after a send, and with search open`, async () => {
      const on = await trackedPage({ viewport: { width, height: width === 1440 ? 1000 : 844 } });
      await on.goto(server.url);
      expect(await severeAxe(on, `${width} px landing`)).toEqual([]);
      const section = await open(on, notifications);
      expect(await severeAxe(on, `${width} px operation`)).toEqual([]);
      await section.getByRole("button", { name: "Try it" }).click();
      const form = section.getByRole("form", { name: /Console/ });
      await form.getByRole("button", { name: /^Send/ }).click();
      await form.locator(".console-status").waitFor();
      expect(await severeAxe(on, `${width} px console open`)).toEqual([]);
      await on.getByRole("button", { name: /^Search/ }).click();
      await on.getByRole("searchbox").fill("retry");
      await on.locator(".search-results a").first().waitFor();
      expect(await severeAxe(on, `${width} px search open`)).toEqual([]);
      await on.screenshot({ path: join(shots, `${width}-search.png`) });
      await on.context().close();
    }, 120_000);
  }

  it("at 360, 390 and 414 px: no page wider than the screen (also with the console open), every response status visible, no word of code broken", async () => {
    for (const width of [360, 390, 414]) {
      const on = await trackedPage({ viewport: { width, height: 844 } });
      for (const file of pageFiles) {
        await on.goto(`${server.url}${file}`);
        await on.locator("h1").first().waitFor();
        expect(await on.evaluate(overflow), `${width} px ${file}`).toEqual([]);
        expect(await on.evaluate(codeBreaks), `${width} px ${file}`).toEqual([]);
        if (expected.some((e) => e.file === file)) expect(await on.evaluate(statusesHidden), `${width} px ${file}`).toEqual([]);
      }
      const section = await open(on, notifications);
      await section.getByRole("button", { name: "Try it" }).click();
      await section
        .getByRole("form", { name: /Console/ })
        .getByRole("button", { name: /^Send/ })
        .click();
      await section.locator(".console-status").waitFor();
      expect(await on.evaluate(overflow), `${width} px console open`).toEqual([]);
      await on.context().close();
    }
  }, 180_000);

  it("the layout checks fail on a page that breaks them (known bad: code breaking anywhere, a wide table, statuses in a narrow scroller)", async () => {
    // The page's CSP refuses added styles; this context ignores it to break the layout on purpose.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const on = await context.newPage();
    await on.goto(`${server.url}${notifications.file}`);
    await on.addStyleTag({
      content: "code .w { white-space: normal !important; word-break: break-all !important; } .responses { display: flex; width: 182px; overflow-x: auto; }",
    });
    expect((await on.evaluate(codeBreaks)).length).toBeGreaterThan(0);
    expect((await on.evaluate(statusesHidden)).length).toBeGreaterThan(0);
    await on.addStyleTag({ content: ".table-wrap, pre.code { overflow: visible !important; } .fields { min-width: 500px; }" });
    expect((await on.evaluate(overflow)).length).toBeGreaterThan(0);
    await context.close();
  }, 60_000);

  it("opens a section or an operation by its link with its heading in view below the top bar, the old one-page links too", async () => {
    const on = await trackedPage({ viewport: { width: 390, height: 844 } });
    for (const [url, heading, file] of [
      [`${server.url}limits.html#description/limits`, "description/limits/title", "limits.html"],
      [`${server.url}limits.html#description/failed-authentication-401-then-429`, "description/failed-authentication-401-then-429", "limits.html"],
      [`${server.url}changelog.html#description/changelog`, "description/changelog/title", "changelog.html"],
      [`${server.url}${notifications.file}#${notifications.route}`, `${notifications.route}/title`, notifications.file],
      // From when the reference was one page: the page that has the id opens.
      [`${server.url}#${notifications.route}`, `${notifications.route}/title`, notifications.file],
      [`${server.url}index.html#description/changelog`, "description/changelog/title", "changelog.html"],
      [`${server.url}#description/limits`, "description/limits/title", "limits.html"],
    ] as const) {
      await on.goto("about:blank");
      await on.goto(url);
      const target = on.locator(`[id="${heading}"]`);
      await expect.poll(() => inView(target), { message: url, timeout: 15_000 }).toBe(true);
      expect(new URL(on.url()).pathname.endsWith(file), url).toBe(true);
      const box = (await target.boundingBox())!;
      const atTop = await on.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest("h1, h2, h3")?.textContent ?? null, [box.x + 4, box.y + box.height / 2]);
      expect(atTop, `${url}: the heading, not the top bar, is at its place`).not.toBeNull();
    }
    await on.context().close();
  }, 60_000);

  it("search finds guide sections by words of their text and operations by their fields, each hit a link to its page; a word on no page finds nothing", async () => {
    const on = await trackedPage();
    for (const [query, title, file] of [
      ["backoff", "Retries and idempotency", "retries-and-idempotency.html"],
      ["128 characters", "Request ids", "request-ids.html"],
      ["Retry-After", "Rate limit: 429 and Retry-After", "limits.html"],
      ["close_text", notifications.summary, notifications.file],
      ["deprecation", "Versions and deprecation", "versions-and-deprecation.html"],
    ] as const) {
      await on.goto(`${server.url}widgets.html`);
      await on.keyboard.press("/");
      await on.getByRole("searchbox").fill(query);
      const hit = on.locator(".search-results a").filter({ hasText: title }).first();
      await hit.waitFor();
      await hit.click();
      await expect.poll(() => new URL(on.url()).pathname.endsWith(file), { message: query }).toBe(true);
      await expect.poll(() => inView(on.getByRole("heading", { name: title }).first()), { message: query, timeout: 15_000 }).toBe(true);
      expect(await on.locator("dialog[open]").count()).toBe(0);
    }
    await on.goto(server.url);
    await on.getByRole("button", { name: /^Search/ }).click();
    await on.getByRole("searchbox").fill("zqxjvkwy");
    await expect.poll(() => on.getByRole("dialog").innerText()).toContain("Nothing found");
    expect(await on.locator(".search-results a").count()).toBe(0);
    await on.context().close();
  }, 120_000);

  it("runs no inline script: one slipped into a copy of a page is refused by its Content-Security-Policy", async () => {
    const copy = join(scratch, "hostile");
    mkdirSync(copy, { recursive: true });
    const html = readFileSync(join(site, "index.html"), "utf8");
    writeFileSync(
      join(copy, "index.html"),
      html.replace('<main id="content">', `<main id="content"><script>document.title = "pwned-script"</script><img src="x" onerror="document.title = 'pwned-onerror'">`),
    );
    const hostile = await serveDirectory(copy);
    const context = await browser.newContext();
    const on = await context.newPage();
    const violations: string[] = [];
    on.on("console", (m) => /Content Security Policy/.test(m.text()) && violations.push(m.text()));
    await on.goto(hostile.url, { waitUntil: "load" });
    await on.waitForTimeout(500);
    expect(await on.title()).toBe(doc.info.title);
    expect(violations.length).toBeGreaterThanOrEqual(2);
    await context.close();
    await hostile.close();
  }, 60_000);

  it("ships the bundled document, the Postman collection and its environments unchanged, and links them from every page", async () => {
    expect(readFileSync(join(site, "openapi.json"), "utf8")).toBe(readFileSync(join(root, "generated/openapi.json"), "utf8"));
    for (const name of readdirSync(join(root, "generated/postman")))
      expect(readFileSync(join(site, "postman", name), "utf8"), name).toBe(readFileSync(join(root, "generated/postman", name), "utf8"));
    const on = await trackedPage();
    await on.goto(`${server.url}${notifications.file}`);
    for (const [name, file] of [
      ["OpenAPI document (openapi.json)", "openapi.json"],
      ["Postman collection", "postman/collection.json"],
      ["llms.txt (Markdown for assistants)", "llms.txt"],
    ]) {
      const href = await on.getByRole("link", { name: name! }).getAttribute("href");
      expect(href).toBe(file);
      const answer = await on.request.get(`${server.url}${href}`);
      expect(answer.status(), file).toBe(200);
    }
    await on.context().close();
  });

  it("writes llms.txt with a link to each guide and operation, and the Markdown of each (method and path, every parameter and status, a sample with placeholders)", () => {
    const llms = readFileSync(join(site, "llms.txt"), "utf8");
    expect(llms.startsWith(`# ${doc.info.title}\n\n> `)).toBe(true);
    const links = [...llms.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    for (const link of links) expect(existsSync(join(site, link)), link).toBe(true);
    for (const operation of expected) {
      expect(links).toContain(`operations/${operation.operationId}.md`);
      const md = readFileSync(join(site, `operations/${operation.operationId}.md`), "utf8");
      expect(md).toContain(`\`${operation.method} ${operation.path}\``);
      for (const status of operation.statuses) expect(md, `${operation.operationId} ${status}`).toMatch(new RegExp(`^### ${status}:`, "m"));
      for (const p of operations().find((o) => o.method === operation.method && o.path === operation.path)!.op.parameters ?? [])
        expect(md).toContain(`\`${deref(p).name}\``);
      expect(md).toContain("YOUR_API_KEY");
      expect(md).not.toContain(appA.apiKey);
    }
    for (const guide of guides) expect(llms, guide).toContain(`[${guide}](guides/`);
  });

  it("says which version it documents, and shows on each operation the releases that changed it, as CHANGELOG.md lists them", async () => {
    const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
    const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((m) => m[1]!);
    const on = await trackedPage();
    await on.goto(server.url);
    expect(await on.locator(".documents").innerText()).toContain(`version ${doc.info.version} of the API`);
    for (const operation of expected) {
      const section = await open(on, operation);
      const history = await section.locator(".history").innerText();
      expect(history, operation.summary).toContain(`${releases.at(-1)} added`);
      // Every release whose changelog entries name this operation is listed on it.
      const missing = releasesNaming(changelog, `${operation.method} ${operation.path}`).filter((release) => !historyLists(history, release));
      expect(missing, operation.summary).toEqual([]);
    }
    // Known bad: a history without a release the changelog names is caught.
    const named = releasesNaming(changelog, `${notifications.method} ${notifications.path}`);
    expect(named.length).toBeGreaterThan(0);
    expect(historyLists(`${releases.at(-1)} added`, named[0]!)).toBe(false);
    await on.context().close();
  }, 60_000);

  it("has a Clients section: the typed client (its sample runs against the mock), the Postman collection and environments, the generators CI runs", async () => {
    const on = await trackedPage();
    await on.goto(`${server.url}clients.html#description/clients`);
    const section = on.locator('section[id="description/clients"]');
    await section.getByRole("heading", { name: /^Clients/ }).waitFor();
    const text = await section.innerText();
    expect(text).toContain("npm install ./authsvc-app-api-contract-<version>.tgz");
    for (const href of ["postman/collection.json", "postman/local-mock.postman_environment.json", "postman/production.postman_environment.json", "llms.txt"]) {
      expect(await section.locator(`a[href="${href}"]`).count(), href).toBe(1);
    }
    const documentMd = readFileSync(join(root, "docs/document.md"), "utf8");
    const { peerSection } = await import("../../scripts/docs/clients.js");
    const peers = peerSection(documentMd);
    if (peers) for (const [, command] of peers.matchAll(/^(?:\$ )?(npx [^\n`]+)/gm)) expect(text).toContain(command!.trim());
    else expect(text).toContain("docs/document.md");
    const client = (await section.locator("pre.code").filter({ hasText: "createApiClient" }).innerText()).replaceAll(mockServer, frontUrl);
    const before = received.length;
    const printed = await runTypeScriptSamples([client], join(scratch, "clients-sample"), root, {});
    expect(received.at(-1)?.status).toBe(200);
    expect(received.length - before).toBe(1);
    expect(printed.trim()).not.toBe("");
    await on.setViewportSize({ width: 390, height: 844 });
    await section.getByRole("heading", { name: /^Clients/ }).scrollIntoViewIfNeeded();
    await on.screenshot({ path: join(shots, "390-clients.png") });
    await on.setViewportSize({ width: 1440, height: 1000 });
    await section.getByRole("heading", { name: /^Clients/ }).scrollIntoViewIfNeeded();
    await on.screenshot({ path: join(shots, "1440-clients.png") });
    await on.context().close();
  }, 120_000);

  it("over the whole run: no console error, no request outside the directory, no 404", async () => {
    for (const width of [1440, 390]) {
      const on = await trackedPage({ viewport: { width, height: width === 1440 ? 1000 : 844 } });
      await open(on, notifications);
      await on.screenshot({ path: join(shots, `${width}-operation.png`) });
      await on.context().close();
    }
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
    expect(server.served.filter((s) => s.status === 404)).toEqual([]);
  });
});

/** The releases of CHANGELOG.md whose entries name `operation` (`POST /notifications`) at their start. */
function releasesNaming(changelog: string, operation: string): string[] {
  return changelog
    .split(/^## /m)
    .slice(1)
    .flatMap((part) => {
      const version = /^\[(\d+\.\d+\.\d+)\]/.exec(part)?.[1];
      if (!version) return [];
      const names = part.split("\n").some((line) => {
        const lead = /^- (?:\*\*Breaking:\*\* )?((?:(?:GET|PUT|POST|DELETE|PATCH) \S+?)(?:, (?:GET|PUT|POST|DELETE|PATCH) \S+?)*):/.exec(line);
        return lead?.[1]?.split(", ").includes(operation) ?? false;
      });
      return names ? [version] : [];
    });
}

/** Whether an operation's "Changes by release" text lists `release`. */
const historyLists = (history: string, release: string) => new RegExp(`(^|\\n)${release.replace(/\./g, "\\.")}\\b`).test(history);
