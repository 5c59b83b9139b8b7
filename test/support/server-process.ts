// The reference server as `npm start` runs it (tsx server/main.ts) in its own process, with
// the given environment (DATABASE_URL among it): resolves its URL once it listens, or its
// exit code and output when it stops first. `serverProcesses()` starts them for a test file
// and stops every one after each test.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { printedUrl } from "./printed-url.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** The base URL (…/v1) once it listens; rejects when it exits first. */
  url: Promise<string>;
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  stop(): Promise<void>;
}

export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { url, exited, stdout, stderr } = printedUrl(child, "the server");
  return {
    child,
    url,
    exited,
    output: () => ({ stdout: stdout(), stderr: stderr() }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * A `start(env)` for a test file: each process it starts is stopped after the test that
 * started it (a failed expectation included), so none outlives its test.
 */
export function serverProcesses(): (env: Record<string, string>) => ServerProcess {
  const started: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.stop()));
  });
  return (env) => {
    const server = startServerProcess(env);
    started.push(server);
    return server;
  };
}
