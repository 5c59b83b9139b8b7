// One e-mail auth key per database: the README's PostgreSQL quick start as written (key
// included) saves e-mail transports; a server started without EMAIL_AUTH_KEY, or with a key
// other than the database's, exits 1 with one line; db:seed likewise; and
// db:rotate-email-key re-seals every stored transport so that saves keep working with the
// new key while the old one is refused.
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openAuth, parseKey } from "../../server/crypto/email-auth.js";
import { loadSeed } from "../../server/seed/load.js";
import { demo } from "../support/demo.js";
import { printedUrl } from "../support/printed-url.js";
import { serverProcesses } from "../support/server-process.js";
import { unavailable, useDatabase } from "./database.js";

const exec = promisify(execFile);
const cli = (args: string[], env: Record<string, string>) =>
  exec(process.execPath, ["--import", "tsx", "server/store/postgres/cli.ts", ...args], { env: { ...process.env, ...env }, encoding: "utf8" }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

const start = serverProcesses();

const otherKey = "cd".repeat(32);
const transport = { type: "SENDGRID", email_from: "no-reply@acme-shop.example", email_admin: "admin@acme-shop.example" };
const saveTransport = (url: string, body: object) =>
  fetch(`${url}/custom/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.a.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The shell block of the README's "Running on PostgreSQL" section, line by line. */
function readmeQuickStart(): string[] {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Running on PostgreSQL"));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md has no shell block under ## Running on PostgreSQL");
  return block[1]!.trim().split("\n");
}

describe.skipIf(unavailable !== undefined)("the e-mail auth key of a database", () => {
  const db = useDatabase();

  it("the README's quick start as written, on a fresh database: POST /custom/emails answers 200", async () => {
    const [install, run] = readmeQuickStart();
    // The first line installs Debian's PostgreSQL and makes the role and database on the
    // system cluster (sudo, port 5432); here the throwaway cluster stands in for it.
    expect(install).toMatch(/^sudo apt-get install -y postgresql && sudo -u postgres psql .*CREATE DATABASE authsvc/);
    // The second line runs as written in bash, pointed at that cluster; `npm ci` has run already.
    expect(run).toMatch(/^export DATABASE_URL=postgres:\/\/app:app@127\.0\.0\.1:5432\/authsvc EMAIL_AUTH_KEY=\$\(.*\) && npm ci && npm run db:seed && npm start$/);
    db.cluster.createDatabase("quickstart");
    const line = run!.replace("postgres://app:app@127.0.0.1:5432/authsvc", db.cluster.urlOf("quickstart")).replace(" && npm ci", "");
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", LOG_LEVEL: "warn" };
    delete env.EMAIL_AUTH_KEY;
    delete env.DATABASE_URL;
    const shell = spawn("bash", ["-c", line], { cwd: new URL("../../", import.meta.url), env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const { url, exited, stdout } = printedUrl(shell, "the quick start");
    try {
      const base = await url;
      expect(stdout()).toContain("loaded");
      const res = await saveTransport(base, { ...transport, auth: { api_key: "SG.quick-start-key" } });
      expect(res.status).toBe(200);
      // And once more without `auth`: the stored one must open with the process's key.
      expect((await saveTransport(base, { ...transport, from_name: "Acme" })).status).toBe(200);
    } finally {
      // npm and tsx under bash: the whole process group.
      process.kill(-shell.pid!, "SIGTERM");
      await exited;
    }
  }, 120_000);

  it("a second process with another key, or none, refuses to start with one line; the first keeps saving", async () => {
    await db.reset(loadSeed());
    const first = start({ DATABASE_URL: db.url });
    const url = await first.url;

    const other = start({ DATABASE_URL: db.url, EMAIL_AUTH_KEY: otherKey });
    expect(await other.exited).toBe(1);
    expect(other.output().stderr.trim().split("\n")).toEqual([
      `Cannot start the reference server: EMAIL_AUTH_KEY is not the key the e-mail transports at 127.0.0.1:${db.cluster.port}/authsvc were sealed with; set that key, or re-seal them with npm run db:rotate-email-key`,
    ]);
    const none = start({ DATABASE_URL: db.url, EMAIL_AUTH_KEY: "" });
    expect(await none.exited).toBe(1);
    expect(none.output().stderr.trim().split("\n")).toEqual([
      `Cannot start the reference server: EMAIL_AUTH_KEY is not set; with DATABASE_URL every process and db:seed must use the same key: make one with: node -p "require('crypto').randomBytes(32).toString('hex')", and set it everywhere`,
    ]);
    expect((await saveTransport(url, { ...transport, from_name: "Still saving" })).status).toBe(200);
  }, 120_000);

  it("db:seed refuses another key or none, unless told --new-email-key", async () => {
    await db.reset(loadSeed());
    const wrong = await cli(["seed"], { DATABASE_URL: db.url, EMAIL_AUTH_KEY: otherKey });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^db: EMAIL_AUTH_KEY is not the key the e-mail transports at .* were sealed with; .*--new-email-key\)\n$/);
    const none = await cli(["seed"], { DATABASE_URL: db.url, EMAIL_AUTH_KEY: "" });
    expect(none).toMatchObject({ code: 1, stderr: expect.stringMatching(/^db: EMAIL_AUTH_KEY is not set; .*randomBytes\(32\)/) });
    const replaced = await cli(["seed", "--new-email-key"], { DATABASE_URL: db.url, EMAIL_AUTH_KEY: otherKey });
    expect(replaced.code).toBe(0);
    const stored = await db.store.emailTransport(demo.a.applicationId);
    expect(openAuth(stored!.auth, parseKey(otherKey))).toEqual({ api_key: expect.any(String) });
  }, 120_000);

  it("db:rotate-email-key re-seals every transport: the new key saves, the old one is refused, a wrong old key changes nothing", async () => {
    await db.reset(loadSeed());
    await db.store.saveEmailTransport(demo.b.applicationId, { ...transport, auth: { api_key: "SG.second-application" } } as never, new Date());
    const oldKey = process.env.EMAIL_AUTH_KEY!;
    const before = (await db.pool.query<{ application_id: string; auth: string }>("SELECT application_id, body->>'auth' AS auth FROM email_transports ORDER BY 1")).rows;
    expect(before).toHaveLength(2);

    const wrong = await cli(["rotate-email-key"], { DATABASE_URL: db.url, OLD_EMAIL_AUTH_KEY: otherKey, EMAIL_AUTH_KEY: "ef".repeat(32) });
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringMatching(/^db: OLD_EMAIL_AUTH_KEY is not the key of the data at .*; nothing was changed\n$/) });
    expect((await db.pool.query("SELECT application_id, body->>'auth' AS auth FROM email_transports ORDER BY 1")).rows).toEqual(before);

    const rotated = await cli(["rotate-email-key"], { DATABASE_URL: db.url, OLD_EMAIL_AUTH_KEY: oldKey, EMAIL_AUTH_KEY: otherKey });
    expect(rotated).toMatchObject({ code: 0, stdout: `re-sealed ${before.length} e-mail transports with EMAIL_AUTH_KEY; start every server with it now\n` });
    const after = (await db.pool.query<{ application_id: string; auth: string }>("SELECT application_id, body->>'auth' AS auth FROM email_transports ORDER BY 1")).rows;
    expect(after.map((row) => [row.application_id, openAuth(row.auth, parseKey(otherKey))])).toEqual(
      before.map((row) => [row.application_id, openAuth(row.auth, parseKey(oldKey))]),
    );

    const stale = start({ DATABASE_URL: db.url, EMAIL_AUTH_KEY: oldKey });
    expect(await stale.exited).toBe(1);
    const fresh = start({ DATABASE_URL: db.url, EMAIL_AUTH_KEY: otherKey });
    // No `auth`: the re-sealed one is kept, so it must open with the new key.
    expect((await saveTransport(await fresh.url, { ...transport, from_name: "After rotation" })).status).toBe(200);
  }, 120_000);
});
