// `authsvc-api mock` and `authsvc-api serve` as a user runs them: each starts, prints its /v1
// URL, answers, and exits 0 on SIGTERM; `--help` prints the usage; a bad flag is one line on
// stderr and exit code 2. Children are killed whatever happens to the test. Flag handling
// runs in this process: each child costs seconds of tsx start-up.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { printedUrl } from "../support/printed-url.js";
import { appA } from "../support/demo.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const command = ["--import", "tsx", "cli/authsvc-api.ts"];
const children: ChildProcess[] = [];
const killAll = () => children.forEach((child) => child.exitCode === null && child.kill("SIGKILL"));
process.once("exit", killAll);
const scratch = mkdtempSync(join(tmpdir(), "cli-"));
afterAll(() => {
  killAll();
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts the command and resolves with the /v1 URL it prints once it listens. */
function start(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [...command, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LOG_LEVEL: "silent" } });
  children.push(child);
  const printed = printedUrl(child, `authsvc-api ${args[0]}`);
  return printed.url.then((url) => ({ child, url, output: () => printed.stdout() + printed.stderr() }));
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  return (await exited)[0] as number | null;
}

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [...command, ...args], { cwd: root }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe("authsvc-api mock", () => {
  it("serves the documented examples under /v1 on --port, lists over --pages pages, and stops on SIGTERM", { timeout: 60_000 }, async () => {
    const { child, url } = await start(["mock", "--port", "0", "--host", "127.0.0.1", "--pages", "4"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${appA.apiKey}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { id: "wgt_5a3c8e1f7b92" } });
    const list = await fetch(`${url}/webhooks?limit=20&page=4`, { headers: { authorization: `Bearer ${appA.apiKey}` } });
    expect(await list.json()).toMatchObject({ meta: { total_count: 61, page_count: 4, current_count: 1, current_page: 4 } });
    expect(await stop(child)).toBe(0);
  });

  it("--dynamic answers generated data instead of the example", { timeout: 60_000 }, async () => {
    const { child, url } = await start(["mock", "--port", "0", "--dynamic"]);
    const body = (await (await fetch(`${url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${appA.apiKey}` } })).json()) as {
      result: { id: string; name: string };
    };
    // Generated values, with the path's id as the record's own.
    expect(body.result.id).toBe("wgt_5a3c8e1f7b92");
    expect(body.result.name).not.toBe("Sign-up form");
    expect(await stop(child)).toBe(0);
  });
});

describe("authsvc-api serve", () => {
  it("runs the reference server with the seed of --seed, for the origins of --cors-origins, and stops on SIGTERM", { timeout: 60_000 }, async () => {
    const seed = join(scratch, "seed.json");
    writeFileSync(seed, readFileSync(join(root, "server/seed/demo.json"), "utf8").replace('"Sign-up form"', '"Seeded form"'));
    const { child, url, output } = await start(["serve", "--port", "0", "--seed", seed, "--cors-origins", "http://192.168.1.20:5173,https://dev.acme-shop.example"]);
    // A preflight from another dev origin: allowed as the flag says, and only those origins.
    const preflight = (origin: string) =>
      fetch(`${url}/widgets/wgt_5a3c8e1f7b92`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      });
    const allowed = await preflight("http://192.168.1.20:5173");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://192.168.1.20:5173");
    expect((await preflight("http://localhost:5173")).headers.get("access-control-allow-origin")).toBeNull();
    expect(output()).toContain(`Seed: ${seed}`);
    const anonymous = await fetch(`${url}/widgets/wgt_5a3c8e1f7b92`);
    expect(anonymous.status).toBe(401);
    const response = await fetch(`${url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer ak_live_acme_4f9e2b7c1d8a6e3f" } });
    expect(await response.json()).toMatchObject({ result: { id: "wgt_5a3c8e1f7b92", name: "Seeded form" } });
    expect(await stop(child)).toBe(0);
  });

  it("starts with the demo data and prints its credentials", { timeout: 60_000 }, async () => {
    const { child, output } = await start(["serve", "--port", "0"]);
    expect(output()).toMatch(/Demo credentials:[\s\S]*API key ak_live_acme_/);
    expect(await stop(child)).toBe(0);
  });
});

/**
 * A command's `run` called in this process, as the entry point calls it: its exit code and
 * what it printed. Flags are parsed before anything loads, so no child process is needed
 * (the entry point's own wiring: the tests above and "an unknown command" below).
 */
const commands: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  mock: () => import("../../cli/mock.js"),
  serve: () => import("../../cli/serve.js"),
};

async function runInProcess([name, ...argv]: string[]) {
  const { run: runCommand } = await commands[name!]!();
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    const code = await runCommand(argv);
    const lines = (spy: typeof log) => spy.mock.calls.map((call) => call.map(String).join(" "));
    return { code, stdout: lines(log).join("\n"), stderr: lines(error).join("\n"), stderrCalls: error.mock.calls.length };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe("flags", () => {
  it.each([["mock"], ["serve"]])("%s --help prints the usage and exits 0", async (name) => {
    const { code, stdout } = await runInProcess([name, "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^usage: authsvc-api ${name} \\[--port N\\]`));
  });

  it.each([
    [["mock", "--bogus"], /Unknown option '--bogus'/],
    [["mock", "--port", "http"], /--port must be a port number/],
    [["mock", "--port"], /--port/],
    [["mock", "extra"], /Unexpected argument 'extra'/],
    [["mock", "--rate-limit", "lots"], /--rate-limit must be a number, on or off, got "lots"/],
    [["mock", "--failed-auth-limit", "3x"], /--failed-auth-limit must be a number, on or off, got "3x"/],
    [["mock", "--rate-limit="], /--rate-limit needs a number, on or off/],
    [["mock", "--pages", "0"], /--pages must be a number from 1, got "0"/],
    [["mock", "--pages", "two"], /--pages must be a number from 1, got "two"/],
    [["serve", "--cors-origins", "localhost:5173"], /--cors-origins: holds "localhost:5173", which is not an origin/],
    [["serve", "--cors-origins="], /--cors-origins needs a comma list of origins, \* or off/],
    [["serve", "--port", "70000"], /--port must be a port number/],
    [["serve", "--seed"], /--seed/],
  ])("%j: one line on stderr, exit code 2", async (args, message) => {
    const { code, stdout, stderr, stderrCalls } = await runInProcess(args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderrCalls).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(new RegExp(`^authsvc-api ${args[0]}: .*\\(--help for usage\\)`));
  });

  it("an unknown command names the commands, exit code 2", async () => {
    const { code, stdout, stderr } = await run(["mocks"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/conformance\|mock\|serve/);
  });

  it("serve with a seed file that does not exist exits 1 naming it", { timeout: 30_000 }, async () => {
    const { code, stderr } = await run(["serve", "--port", "0", "--seed", join(scratch, "missing.json")]);
    expect(code).toBe(1);
    expect(stderr).toContain("missing.json");
  });
});
