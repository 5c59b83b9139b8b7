// A database driver's error never puts the statement's values in the log, in this process:
// an error shaped as node-postgres' DatabaseError (a SQLSTATE `code`, a `severity`, and a
// message, `detail`, `where` and `hint` quoting the values) thrown by a handler is logged
// with its SQLSTATE, the schema objects it names and its stack frames only, also as the
// `cause` of another error; an error that only looks alike keeps its message. The same with
// a real driver error from PostgreSQL: test/postgres/driver-error-log.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loggableError } from "../../../server/middleware/logging.js";
import { appA } from "../../support/demo.js";
import { send, startHarness, type Harness } from "./harness.js";

const quoted = "alice@acme-shop.example";

/** As pg-protocol builds it: `name` "error", the fields PostgreSQL sent as own properties. */
class DatabaseError extends Error {
  severity = "ERROR";
  code = "22P02";
  detail = `Token "${quoted}" is invalid.`;
  hint = `Check "${quoted}".`;
  where = `JSON data, line 1: {"email_admin":"${quoted}`;
  schema = "public";
  table = "email_transports";
  column = "settings";
  routine = "json_errsave_error";
  constructor() {
    // " at " in the first line too: only the indented frames are kept.
    super(`invalid input syntax for type json: "${quoted}" at position 16`);
    this.name = "error";
  }
}

const driverError = new DatabaseError();
const frames = driverError.stack!.split("\n").slice(1).join("\n");
const cut = {
  type: "DatabaseError",
  message: "database error 22P02 (text not logged: it can quote the statement's values)",
  code: "22P02",
  severity: "ERROR",
  routine: "json_errsave_error",
  schema: "public",
  table: "email_transports",
  column: "settings",
  stack: frames,
};
const wrapper = new Error("the webhook query failed", { cause: driverError });

describe("a driver error thrown by a handler", () => {
  let server: Harness;
  beforeAll(async () => {
    server = await startHarness({
      rateLimit: false,
      handlers: {
        readWidget: () => {
          throw driverError;
        },
        findWebhooks: () => {
          throw wrapper;
        },
      },
    });
  });
  afterAll(() => server.close());
  const loggedErrorOf = async (path: string) => {
    const response = await send(server, { method: "GET", path }, { authorization: `Bearer ${appA.apiKey}` });
    expect(response.status).toBe(500);
    const id = response.headers.get("x-request-id");
    const line = server.logs.find((record) => record.msg === "unexpected error" && (record.req as { id: string }).id === id);
    return line?.err;
  };

  it("is logged with its SQLSTATE, the objects it names and its stack frames, none of its text", async () => {
    // The fixture's precondition: two frames or more, so how they are joined is seen too.
    expect(frames).toMatch(/^ {4}at .*\n {4}at /);
    expect(await loggedErrorOf("/widgets/wgt_5a3c8e1f7b92")).toStrictEqual(cut);
  });

  it("as the cause of another error, is cut the same way; the other keeps its own message and stack", async () => {
    expect(await loggedErrorOf("/webhooks")).toStrictEqual({ type: "Error", message: "the webhook query failed", stack: wrapper.stack, cause: cut });
  });

  it("leaves no quoted value in any line", () => {
    expect(server.rawLogs.filter((line) => line.includes("unexpected error"))).toHaveLength(2);
    expect(server.rawLogs.filter((line) => line.includes(quoted) || line.includes("JSON data"))).toEqual([]);
  });
});

describe("loggableError", () => {
  // Node's system errors have a code but no severity; a 5-character code such as EPIPE looks
  // like a SQLSTATE, and another library's error may carry a severity.
  const alike = [
    Object.assign(new Error("write EPIPE"), { code: "EPIPE", errno: -32 }),
    Object.assign(new Error("bad option"), { code: "ERR_INVALID_ARG_VALUE", severity: "ERROR" }),
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", severity: "ERROR" }),
    Object.assign(new Error("numeric code"), { code: 22003, severity: "ERROR" }),
    Object.assign(new Error("no code"), { severity: "ERROR" }),
  ];
  it.each(alike)("keeps the message of an error that is not a driver's: $message", (error) => {
    expect(loggableError(error)).toMatchObject({ type: "Error", message: error.message, stack: error.stack });
  });

  it("serializes what is not an Error as pino does, a function with a cause too", () => {
    const plain = { code: "22P02", severity: "ERROR", message: quoted };
    expect(loggableError(plain)).toMatchObject({ type: "Object", message: quoted });
    const thrown = Object.assign(() => undefined, { cause: driverError });
    expect(loggableError(thrown)).toBe(thrown);
  });

  it("logs `{ err: null }` as null instead of throwing from the logging call", () => {
    expect(loggableError(null)).toBeNull();
    expect(loggableError(undefined)).toBeUndefined();
  });
});
