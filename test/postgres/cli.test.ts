// `npm run db:migrate` and `npm run db:seed` against a real database, and their one-line
// refusal when the database cannot be reached.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSeed } from "../../server/seed/load.js";
import { seedWith } from "../server/operations/harness.js";
import { unavailable, useDatabase } from "./database.js";

const exec = promisify(execFile);
const cli = (args: string[], url: string | undefined) =>
  exec(process.execPath, ["--import", "tsx", "server/store/postgres/cli.ts", ...args], {
    env: { ...process.env, DATABASE_URL: url ?? "" },
    encoding: "utf8",
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe.skipIf(unavailable !== undefined)("db:migrate and db:seed", () => {
  const db = useDatabase();

  it("migrate reports the database up to date (the harness migrated it)", async () => {
    expect(await cli(["migrate"], db.url)).toMatchObject({ code: 0, stdout: "database is up to date\n" });
  });

  it("seed loads the demo seed by default, or the --seed file in its place", async () => {
    const demo = loadSeed();
    expect((await cli(["seed"], db.url)).code).toBe(0);
    const names = async () => (await db.pool.query<{ name: string }>("SELECT name FROM applications ORDER BY name")).rows.map((r) => r.name);
    expect(await names()).toEqual(demo.applications.map((a) => a.name).sort());

    const file = join(mkdtempSync(join(tmpdir(), "seed-")), "seed.json");
    writeFileSync(file, JSON.stringify(seedWith((s) => (s.applications[0]!.name = "Renamed by seed file"))));
    expect((await cli(["seed", "--seed", file], db.url)).code).toBe(0);
    expect(await names()).toContain("Renamed by seed file");
  }, 60_000);

  it("an unreachable database or no DATABASE_URL is exit 1 with one line", async () => {
    const down = await cli(["migrate"], `postgres://app@127.0.0.1:${db.cluster.port + 1}/authsvc`);
    expect(down.code).toBe(1);
    expect(down.stderr.trim().split("\n")).toHaveLength(1);
    expect(down.stderr).toMatch(/^db: .*ECONNREFUSED/);
    const unset = await cli(["migrate"], undefined);
    expect(unset).toMatchObject({ code: 1, stderr: expect.stringMatching(/^db: DATABASE_URL is not set/) });
  }, 60_000);
});
