// The reference server as `npm start` runs it (tsx server/main.ts) in its own process, with
// the given environment (DATABASE_URL among it): resolves its URL once it listens, or its
// exit code and output when it stops first.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

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
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", () => {
      const match = /listening on (http:\/\/\S+\/v1)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
  });
  url.catch(() => undefined);
  return {
    child,
    url,
    exited,
    output: () => ({ stdout, stderr }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
