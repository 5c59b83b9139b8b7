// Every statement the PostgreSQL store runs on a tenant table is scoped by application_id:
// the static ones in server/store/postgres/sql.ts and the report queries built per request.
// Only the two named in `unscoped` (credential lookup by key digest, the start-up listing)
// go without, and neither reads a tenant table's records.
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { reportPageAndCount, reportQuery } from "../../../server/store/postgres/reports.js";
import { sql, unscoped } from "../../../server/store/postgres/sql.js";
import { migrations } from "../../../server/store/postgres/migrate.js";

/** Tables created by the migrations that carry application_id (the tenant tables). */
const tenantTables = migrations()
  .flatMap(({ sql: text }) => [...text.matchAll(/CREATE TABLE (\w+) \(([\s\S]*?)\n\);/g)])
  .filter(([, , columns]) => /^\s*application_id /m.test(columns!))
  .map(([, name]) => name!);

/** The tenant tables a statement names after FROM, JOIN, UPDATE, INTO or COPY. */
const tablesOf = (text: string) => [...text.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO|COPY)\s+(\w+)/gi)].map((m) => m[1]!).filter((t) => tenantTables.includes(t));

/** True when the statement restricts application_id to a parameter (or COPY loads it as a column). */
const scoped = (text: string) =>
  /\bapplication_id\s*=\s*\$1\b/.test(text) || /^COPY \w+ \(application_id,/.test(text) || /^INSERT INTO \w+ \(application_id,[^)]*\) VALUES \(\$1,/.test(text);

describe("tenant scoping of the PostgreSQL store's SQL", () => {
  it("finds the tenant tables of the schema", () => {
    expect(tenantTables).toEqual(expect.arrayContaining(["encryption_reports", "sms_providers", "users", "email_transports", "webhooks"]));
  });

  const statements = Object.entries(sql).map(([name, text]) => ({ name, text, tables: tablesOf(text) }));

  // Named, so that a statement (or a broken table detection) that stops naming a tenant table
  // cannot leave the scoping check below without anything to check.
  it("every static statement names a tenant table but those on applications, maintenance and settings", () => {
    expect(statements.filter((s) => s.tables.length === 0).map((s) => s.name)).toEqual([
      "application",
      "owner",
      "lockApplication",
      "vacuumReports",
      "reportIndexes",
      "buildMemory",
      "noStatementTimeout",
    ]);
  });

  it.each(statements.filter((s) => s.tables.length > 0).map((s) => [s.name, s.text]))("%s names a tenant table only with application_id = $1", (_name, text) => {
    expect(scoped(text), text).toBe(true);
  });

  it("every report query is scoped, whatever the filters", () => {
    const all = {
      account: "a",
      email: "E",
      country: "ES",
      region: "MD",
      device_type: "IOS",
      device_version: "1",
      status: "NEW",
      ip: "::1",
      group: "7",
      start_date: 1,
      end_date: 2,
    };
    for (const filters of [{}, all, { ip: "10.0.0.1" }, { group: "07" }, { country: "ES", start_date: 1, end_date: 200_000 }]) {
      const { count, page } = reportQuery("app_x", filters as never, { limit: 10, page: 1 });
      const paging = { limit: 10, page: 3 };
      for (const statement of [count, page, reportPageAndCount("app_x", filters as never, paging), reportPageAndCount("app_x", filters as never, paging, "offset")]) {
        expect(scoped(statement.text), statement.text).toBe(true);
        expect(statement.values[0]).toBe("app_x");
      }
    }
  });

  it("the unscoped statements read no tenant records but credentials' digest", () => {
    expect(tablesOf(unscoped.applications)).toEqual([]);
    expect(tablesOf(unscoped.credential)).toEqual(["credentials"]);
    expect(unscoped.credential).toMatch(/WHERE c\.key_digest = \$1$/);
  });

  // The e-mail key check and rotation read and re-seal every application's transport: a
  // database-wide task of the operator, like loading a seed.
  it("no other module of the store touches a tenant table (seed loading, the e-mail key check and migrations aside)", () => {
    const dir = new URL("../../../server/store/postgres/", import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !["sql.ts", "reports.ts", "seed.ts", "migrate.ts", "email-key.ts"].includes(f))) {
      const text = readFileSync(new URL(file, dir), "utf8");
      expect(tablesOf(text), file).toEqual([]);
    }
  });
});
