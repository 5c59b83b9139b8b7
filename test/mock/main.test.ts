// `npm run mock` itself: the entry point starts, prints its /v1 URL, serves, and exits
// cleanly on SIGTERM. The child is killed whatever happens to the test. And `startMock` in a
// fresh process: ready when it resolves, every validator built.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { printedUrl } from "../support/printed-url.js";
import { appA } from "../support/demo.js";
import { operations } from "../../generated/operations.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
let child: ChildProcess | undefined;
const killChild = () => child?.exitCode === null && child.kill("SIGKILL");
process.once("exit", killChild);
afterAll(killChild);

it("npm run mock serves under /v1 on PORT and stops on SIGTERM", { timeout: 60_000 }, async () => {
  // One process (node with tsx's loader, as `npm run mock` runs it), so a kill leaves no orphan.
  child = spawn(process.execPath, ["--import", "tsx", "mock/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await printedUrl(child, "the mock").url;
  const response = await fetch(`${url}/webhooks/whk_3a7f1c9e5b2d`, { headers: { authorization: `Bearer ${appA.apiKey}` } });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ result: { id: "whk_3a7f1c9e5b2d" } });

  const exited = once(child, "exit");
  child.kill("SIGTERM");
  expect((await exited)[0]).toBe(0);
});

it("startMock resolves with every operation's validators built: no request builds one", { timeout: 60_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "test/mock/compiled-on-start.ts"], { cwd: root });
  const { atStart, afterRequests, statuses } = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    atStart: number;
    afterRequests: number;
    statuses: Record<string, number>;
  };
  expect(statuses).toEqual(Object.fromEntries(Object.entries(operations).map(([operationId, { successStatus }]) => [operationId, successStatus])));
  expect(atStart).toBeGreaterThan(0);
  expect(afterRequests).toBe(atStart);
});
