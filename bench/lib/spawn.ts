// The parent side of a benchmark target: fork the target script under tsx, wait for it to
// listen and answer its first 200 (the cold start), and ask it for its CPU time and RSS.
import { fork, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import type { FromChild, ToChild, Usage } from "./child.js";

export interface Target {
  /** Base URL the target listens on (what the target reported, e.g. `http://127.0.0.1:1234/v1`). */
  url: string;
  /** What the target reported besides its URL (the scale child's load figures). */
  info: unknown;
  /** Milliseconds from spawn to the first 200 on the probe request. */
  coldStartMs: number;
  /** CPU and memory so far; `gc` collects first when the target runs with --expose-gc. */
  usage(options?: { gc?: boolean }): Promise<Usage>;
  /** Starts a CPU profile in the target; `stop` writes it (a .cpuprofile) to `file`. */
  profile: { start(): Promise<void>; stop(file: string): Promise<void> };
  /** Ends the target: SIGTERM, or with `graceful` by closing IPC so it exits on its own (and --cpu-prof writes). */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

export interface Probe {
  /** Path below the target URL that must answer 200, e.g. `/widgets/wgt_5a3c8e1f7b92`. */
  path: string;
  headers?: Record<string, string>;
}

/** Forks `script` (a target under bench/targets) and resolves once it answers `probe` with 200. */
export async function spawnTarget(
  script: string,
  probe: Probe,
  options: { env?: Record<string, string>; execArgv?: string[]; timeoutMs?: number } = {},
): Promise<Target> {
  const t0 = performance.now();
  const child = fork(script, [], {
    execArgv: ["--import", "tsx", ...(options.execArgv ?? [])],
    env: { ...process.env, NODE_ENV: "production", ...options.env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  let failed: Error | undefined;
  child.once("exit", (code) => {
    failed ??= new Error(`${script} exited with ${code} before it was stopped`);
  });
  let info: unknown;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script}: not ready within ${options.timeoutMs ?? 60_000} ms`)), options.timeoutMs ?? 60_000);
    child.on("message", (m: FromChild) => {
      if (m.type === "ready") {
        clearTimeout(timer);
        info = m.info;
        resolve(m.url);
      }
      if (m.type === "failed") {
        clearTimeout(timer);
        reject(new Error(`${script}: ${m.message}`));
      }
    });
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`${script} exited with ${code}`))));
  });
  await firstOk(url + probe.path, probe.headers ?? {});
  const coldStartMs = performance.now() - t0;
  let nextId = 0;
  return {
    url,
    info,
    coldStartMs,
    usage: (o) => askUsage(child, nextId++, o?.gc ?? false),
    profile: {
      start: () => ask(child, { type: "profile-start", id: nextId++ }),
      stop: (file) => ask(child, { type: "profile-stop", id: nextId++, file }),
    },
    stop: (o) => stop(child, () => failed, o?.graceful ?? false),
  };
}

async function firstOk(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(url, { headers }).catch(() => undefined);
    if (res) await res.arrayBuffer();
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} never answered 200`);
}

function askUsage(child: ChildProcess, id: number, gc: boolean): Promise<Usage> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromChild) => {
      if (m.type === "usage" && m.id === id) {
        child.off("message", onMessage);
        resolve(m.usage);
      }
    };
    child.on("message", onMessage);
    if (!child.send({ type: "usage", id, gc } satisfies ToChild)) reject(new Error("target gone"));
  });
}

function ask(child: ChildProcess, message: ToChild & { id: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromChild) => {
      if (m.type === "done" && m.id === message.id) {
        child.off("message", onMessage);
        resolve();
      }
    };
    child.on("message", onMessage);
    if (!child.send(message)) reject(new Error("target gone"));
  });
}

async function stop(child: ChildProcess, failed: () => Error | undefined, graceful: boolean): Promise<void> {
  const gone = new Promise((r) => child.once("exit", r));
  const crashed = child.exitCode !== null ? failed() : undefined;
  if (graceful) child.disconnect();
  else child.kill("SIGTERM");
  await Promise.race([gone, new Promise((r) => setTimeout(r, graceful ? 15_000 : 3000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (crashed) throw crashed;
}
