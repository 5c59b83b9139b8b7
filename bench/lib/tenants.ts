// Two tenants on one PostgreSQL-backed server, for bench:tenants and bench:deep-pages: the
// reference server started as an operator starts it (`npm start` with DATABASE_URL), a
// reader that measures one tenant's latency from its own address and its own process, and
// another tenant's load (autocannon, in the bench's process).
import { fork, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { percentile } from "./load.js";

/** Application A of the demo seed (owner of the generated reports) and B, another tenant. */
export const keyA = "ak_live_acme_4f9e2b7c1d8a6e3f";
export const keyB = "ak_live_globex_2d7a9c4e1f6b3a8d";
export const webhookB = "whk_6c2e9f4a1b7d";

export interface StoreServer {
  port: number;
  /** The server's resident memory now (MB); throws once it exited. */
  rssMb(): number;
  kill(): void;
}

/** `node --import tsx server/main.ts` of the checkout at `root` on `databaseUrl`, NODE_ENV=production, logging warnings; resolves once it listens. */
export async function startStoreServer(root: string, databaseUrl: string, env: Record<string, string>): Promise<StoreServer> {
  const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: "0", LOG_LEVEL: "warn", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  server.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
      if (server.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`server exited: ${out}`));
      }
    }, 50);
  });
  return {
    port,
    rssMb: () => {
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1];
      if (rss === undefined) throw new Error(`the server exited (${server.exitCode ?? server.signalCode}): ${out.slice(-2000)}`);
      return Number(rss) / 1024;
    },
    kill: () => void server.kill("SIGKILL"),
  };
}

export interface Reading {
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

/** One read of B: when it started (epoch ms), how long it took (ms), its status or error. */
export type Sample = [at: number, ms: number, status: string];

/** Application B's reads in a child process (bench/lib/tenant-reader.ts), from now until `stop()`. */
export interface Reader {
  /** The reads that started in [from, to) (epoch ms). */
  between(from: number, to: number): Promise<Reading>;
  /** The reads started in each window, together. */
  within(windows: [number, number][]): Promise<Reading>;
  stop(): Promise<void>;
}

export function readingOf(samples: Sample[]): Reading {
  const statuses: Record<string, number> = {};
  for (const [, , status] of samples) statuses[status] = (statuses[status] ?? 0) + 1;
  const latencies = samples.map(([, ms]) => ms);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), statuses };
}

export async function startReader(port: number): Promise<Reader> {
  const child = fork(new URL("./tenant-reader.ts", import.meta.url).pathname, [String(port)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the reader exited (${code})`)));
  });
  const samples = (message: "samples" | "stop") =>
    new Promise<Sample[]>((resolve) => {
      child.once("message", (sent) => resolve(sent as Sample[]));
      child.send(message);
    });
  const within = async (windows: [number, number][]) => readingOf((await samples("samples")).filter(([at]) => windows.some(([from, to]) => at >= from && at < to)));
  return {
    within,
    between: (from, to) => within([[from, to]]),
    stop: async () => {
      await samples("stop");
    },
  };
}

/** A's load: autocannon from 127.0.0.1 (its own key, or distinct bogus keys, in `options.requests`). */
export function attack(port: number, options: Omit<autocannon.Options, "url">) {
  const statuses: Record<string, number> = {};
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ timeout: 30, ...options, url: `http://127.0.0.1:${port}` }, (error, result) => (error ? reject(error) : resolve(result)));
  });
  instance.on("response", (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1));
  return done.then((result) => ({ statuses, errors: result.errors, timeouts: result.timeouts, latencyP99: result.latency.p99 }));
}

/** `{ "200": 3, "429": 1 }` → `3 × 200, 1 × 429`. */
export const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(", ") || "none";
