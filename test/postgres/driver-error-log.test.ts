// A database error never puts the request's values in the log. PostgreSQL quotes what it
// refused: "JSON data, line 1: …" holds about 40 characters of the body around the bad
// character, e-mail addresses among them, and messages such as `value "…" is out of range`
// quote the value. A store that sends a body to the database the way the e-mail transport
// was once sent (JSON text with \u0000 into jsonb) fails with such an error here: the
// answer is the generic 500, and the logged error keeps the SQLSTATE and the stack frames
// only, also when it is the `cause` of another error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loggableError } from "../../server/middleware/logging.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { loadSeed } from "../../server/seed/load.js";
import { demo } from "../support/demo.js";
import { captureLogs } from "../support/logs.js";
import { unavailable, useDatabase } from "./database.js";

const body = {
  type: "SENDGRID",
  auth: { api_key: "SG.log-check" },
  email_from: "no-reply@acme-shop.example",
  email_admin: "quoted-admin@acme-shop.example",
  from_name: "Acme\u0000Shop",
};

describe.skipIf(unavailable !== undefined)("database errors in the log", () => {
  const db = useDatabase();
  const logs = captureLogs("info");
  let server: RunningServer;

  beforeAll(async () => {
    await db.reset(loadSeed());
    // The store as it was before bodies were escaped: the body's JSON text straight into jsonb.
    const store = Object.create(db.store) as typeof db.store;
    store.saveEmailTransport = async (_applicationId, settings) => (await db.pool.query("SELECT $1::jsonb AS body", [JSON.stringify(settings)])).rows[0].body;
    server = await startServer({ store, rateLimit: false, failedAuthLimit: false, logger: logs.logger });
  });
  afterAll(() => server?.close());

  it("a driver error that quotes the body: 500, and the log holds its SQLSTATE but no body text", async () => {
    const res = await fetch(`${server.url}/custom/emails`, {
      method: "POST",
      headers: { authorization: `Bearer ${demo.a.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(500);
    const logged = logs.records.find((record) => record.msg === "unexpected error") as { err: Record<string, unknown> } | undefined;
    expect(logged?.err).toMatchObject({ type: "DatabaseError", code: "22P05", severity: "ERROR" });
    expect(logged?.err).not.toHaveProperty("detail");
    expect(logged?.err).not.toHaveProperty("where");
    for (const text of ["acme-shop", "quoted-admin", "Acme", "JSON data", "\\u0000", "SG.log-check"]) {
      expect(
        logs.lines.filter((line) => line.includes(text)),
        text,
      ).toEqual([]);
    }
  });

  it("the same error as the cause of another is cut the same way; other errors keep their message", async () => {
    const failure = await db.pool.query("SELECT $1::int", ["2147483648"]).catch((error: unknown) => error);
    expect(String(failure)).toContain("2147483648");
    const wrapped = loggableError(new Error("the report query failed", { cause: failure })) as { message: string; cause: Record<string, unknown> };
    expect(wrapped.message).toBe("the report query failed");
    expect(wrapped.cause).toMatchObject({ code: "22003" });
    expect(JSON.stringify(wrapped)).not.toContain("2147483648");
  });
});
