// The bundle loads in Prism 5.14.2 (the mock's engine) run as its own CLI: it serves the
// document's example, refuses an invalid request, and checks both credential schemes.
// Prism ignores the server URL's path (prism #266), so the CLI serves without `/v1`.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePath, deref, operation } from "./document.js";
import { freePort } from "../support/free-port.js";

const require = createRequire(import.meta.url);
const prismCli = require.resolve("@stoplight/prism-cli/dist/index.js");

let prism: ChildProcess | undefined;
let base = "";
let output = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  prism = spawn(process.execPath, [prismCli, "mock", fileURLToPath(bundlePath), "-h", "127.0.0.1", "-p", String(port), "-v", "error"], {
    env: { ...process.env, NODE_ENV: "test" }, // production would switch on --multiprocess
    stdio: ["ignore", "pipe", "pipe"],
  });
  prism.stdout!.on("data", (chunk) => (output += chunk));
  prism.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) => prism!.once("exit", (code) => reject(new Error(`prism exited with ${code} before serving:\n${output}`))));
  const ready = (async () => {
    for (const deadline = Date.now() + 45_000; Date.now() < deadline; await sleep(200)) {
      try {
        await fetch(`${base}/webhooks`, { headers: { authorization: "Bearer x" } });
        return;
      } catch {
        // not listening yet
      }
    }
    throw new Error(`prism did not listen within 45 s:\n${output}`);
  })();
  await Promise.race([ready, exited]);
}, 60_000);

afterAll(async () => {
  if (!prism || prism.exitCode !== null) return;
  const gone = new Promise((resolve) => prism!.once("exit", resolve));
  prism.kill("SIGTERM");
  await Promise.race([gone, sleep(5_000).then(() => prism!.kill("SIGKILL"))]);
});

describe("Prism 5.14.2 over the bundle", () => {
  it("serves the document's example for GET /widgets/{id}", async () => {
    const example = deref(Object.values(deref(operation("GET", "/widgets/{id}").responses["200"]).content["application/json"].examples)[0]).value;
    const response = await fetch(`${base}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer ak_test" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(example);
    expect(output).not.toMatch(/error|fatal|✖/i); // nothing logged at -v error while loading or serving
  });

  it("refuses limit=101 with the document's 400 problem", async () => {
    const response = await fetch(`${base}/reports/encryption?limit=101`, { headers: { authorization: "Bearer ak_test" } });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(((await response.json()) as { code: string }).code).toBe("validation_failed");
    expect(response.headers.get("sl-violations")).toMatch(/limit/);
  });

  it("asks for both X-Api-Key and X-Api-Secret on POST /notifications", async () => {
    const body = JSON.stringify({ type: "SIMPLE", title: "T", content: "C", broadcast: true });
    const send = (headers: Record<string, string>) =>
      fetch(`${base}/notifications`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    expect((await send({ "x-api-key": "k" })).status).toBe(401);
    expect((await send({ "x-api-key": "k", "x-api-secret": "s" })).status).toBe(200);
  });
});
