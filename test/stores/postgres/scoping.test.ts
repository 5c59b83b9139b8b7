// Every statement the PostgreSQL store runs on a tenant table is scoped by application_id:
// the static ones in server/store/postgres/sql.ts and the report queries built per request,
// read as the SQL they are; and what the store really sends, captured at the pg client
// while every tenant method of the store port runs. Only the two named in `unscoped`
// (credential lookup by key digest, the start-up listing) go without, and neither reads a
// tenant table's records.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../../generated/operations.js";
import { ApiProblem } from "../../../server/problems.js";
import { loadSeed } from "../../../server/seed/load.js";
import { reportPageAndCount, reportQuery } from "../../../server/store/postgres/reports.js";
import { sql, unscoped } from "../../../server/store/postgres/sql.js";
import type { PostgresStore } from "../../../server/store/postgres/index.js";
import { migrations } from "../../../server/store/postgres/migrate.js";
import { unavailable, useDatabase } from "../../postgres/database.js";
import { pathExample, requestExamples } from "../../support/document.js";
import { callerA, setupOn } from "../../server/operations/harness.js";

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
});

// What the store sends, not what its source says: every statement that reaches PostgreSQL
// while every operation is served for application A (each handler with its documented
// request) and the store methods no handler reaches are called, names a tenant table only
// scoped to A: `application_id = $1` with A's id as $1. (The credential lookups
// and the application listing are the unscoped statements above; seed loading, migrations
// and the e-mail key tasks are the operator's, database-wide.)
describe.skipIf(unavailable !== undefined)("tenant scoping of what the PostgreSQL store sends", () => {
  const db = useDatabase();
  const sent: { text: string; values: unknown[] }[] = [];
  const query = pg.Client.prototype.query;
  beforeAll(async () => {
    await db.reset(loadSeed());
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
      const text = typeof config === "string" ? config : (config?.text ?? "");
      sent.push({ text, values: Array.isArray(values) ? values : typeof config === "object" ? (config?.values ?? []) : [] });
      return (query as (...args: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(() => {
    pg.Client.prototype.query = query;
  });

  it("every tenant method of the store, reached for A, sends only statements scoped to A", async () => {
    const a = callerA.applicationId;
    // Each method of the store, wrapped to tell which statements it sent.
    const store = Object.create(db.store) as PostgresStore;
    const sentBy = new Map<string, { text: string; values: unknown[] }[]>();
    for (const name of Object.keys(db.store) as (keyof PostgresStore)[]) {
      const method = db.store[name];
      if (typeof method !== "function" || ["authenticateBearer", "authenticateKeyPair", "applications", "close"].includes(name)) continue;
      (store as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
        const before = sent.length;
        try {
          return await (method as (...args: unknown[]) => unknown).apply(db.store, args);
        } finally {
          sentBy.set(name, [...(sentBy.get(name) ?? []), ...sent.slice(before)]);
        }
      };
    }
    // Every operation through its handler, with its documented request (a new operation is
    // reached with no change here), then the methods no handler reaches, directly.
    const { call } = setupOn(store);
    for (const id of Object.keys(operations) as OperationId[]) {
      const body = operations[id].hasBody ? requestExamples(id)[0]![1] : undefined;
      await call(id, { path: pathExample(id), body } as never).catch((error: unknown) => {
        if (!(error instanceof ApiProblem)) throw error;
      });
    }
    const [report] = (await store.encryptionReports(a, {}, { limit: 1, page: 1 })).result;
    await store.smsProviders(a);
    await store.notifications(a);
    await store.emailTransport(a);
    await store.addReports(a, [{ ...report!, id: "rep_0000000000aa" }]);

    const methods = Object.keys(store).sort();
    expect(methods).toEqual(expect.arrayContaining(["widget", "userActivity", "encryptionReports", "addReports", "smsProviders", "webhookHistory"]));
    expect(
      methods.filter((name) => !sentBy.has(name)),
      "store methods this test did not reach",
    ).toEqual([]);
    for (const name of methods) {
      const tenant = sentBy.get(name)!.filter((statement) => tablesOf(statement.text).length > 0);
      expect(tenant.length, `${name} sent no statement on a tenant table`).toBeGreaterThan(0);
      for (const { text, values } of tenant) {
        expect(scoped(text), `${name}: ${text}`).toBe(true);
        // A COPY's rows come through its stream: where they landed is read back below.
        if (!text.startsWith("COPY ")) expect(values[0], `${name}: ${text}`).toBe(a);
      }
    }
    expect((await db.pool.query("SELECT application_id FROM encryption_reports WHERE id = $1", ["rep_0000000000aa"])).rows).toEqual([{ application_id: a }]);
  });
});
