// A throwaway PostgreSQL cluster for the tests: Debian's binaries, initdb in a temporary
// directory on a free port of 127.0.0.1, stopped and removed by stop(). initdb refuses
// root, so under root the cluster belongs to the `postgres` user. When PostgreSQL is not
// installed or does not start, or TEST_POSTGRES=off asks for a run without it (the fast
// inner loop, docs/testing.md), `unavailable` says why; test/support/real-parts.ts decides
// whether the suites skip (a contributor's machine) or fail (CI).
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.js";

export interface Cluster {
  /** postgres://app@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** A connection URL for database `name` (created by createDatabase). */
  urlOf(name: string): string;
  createDatabase(name: string): void;
  /** pg_ctl stop -m fast (the data stays, start() brings it back). */
  stopServer(): void;
  startServer(): void;
  /** Stops the server and removes the directory. */
  stop(): void;
}

/** PostgreSQL's bin directory: PG_BIN_DIR, else the newest of Debian's installed versions. */
function binDir(): string | undefined {
  const given = process.env.PG_BIN_DIR;
  if (given) return existsSync(join(given, "initdb")) ? given : undefined;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

function userId(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** Starts a cluster, or answers why it cannot. */
export async function startCluster(): Promise<Cluster | { unavailable: string; deliberate?: boolean }> {
  const wanted = process.env.TEST_POSTGRES;
  if (wanted !== undefined && wanted !== "on" && wanted !== "off") throw new Error(`TEST_POSTGRES is "${wanted}": "on" (the default) or "off"`);
  if (wanted === "off") return { unavailable: "TEST_POSTGRES=off turned PostgreSQL off for this run", deliberate: true };
  const bin = binDir();
  if (bin === undefined) return { unavailable: "PostgreSQL is not installed (apt-get install -y postgresql)" };
  const root = process.getuid?.() === 0;
  const owner = root ? userId("postgres") : undefined;
  if (root && owner === undefined) return { unavailable: "running as root and there is no postgres user to own the cluster" };

  const dir = mkdtempSync(join(tmpdir(), "authsvc-pg-"));
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const port = await freePort();
  const run = (file: string, args: string[]) => {
    const command = root ? "runuser" : join(bin, file);
    const argv = root ? ["-u", "postgres", "--", join(bin, file), ...args] : args;
    execFileSync(command, argv, { stdio: "pipe", cwd: dir });
  };
  const startServer = () =>
    run("pg_ctl", ["-D", data, "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, "-l", join(dir, "log"), "-w", "start"]);
  const stopServer = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  try {
    run("initdb", ["-D", data, "-A", "trust", "-U", "app", "--no-sync", "-E", "UTF8"]);
    startServer();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { unavailable: `PostgreSQL did not start: ${stderr || (error as Error).message}` };
  }
  const urlOf = (name: string) => `postgres://app@127.0.0.1:${port}/${name}`;
  return {
    url: urlOf("postgres"),
    port,
    urlOf,
    createDatabase: (name) => run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "app", name]),
    stopServer,
    startServer,
    stop() {
      try {
        stopServer();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
