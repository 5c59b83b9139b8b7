// The request log's level says how the request ended: one "request completed" line at info
// for a success, warn for a client error (400 and 401 at the boundary's edge) and for a 501
// (an operation not implemented yet, expected while a service moves over), error for a
// server error (500 exactly); its responseTime is the server's own time for the request, so
// never more than the client waited. createLogger writes at the level it is given.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../server/middleware/logging.js";
import { ApiProblem } from "../../../server/problems.js";
import { appA } from "../../support/demo.js";
import { send, startHarness, type Harness } from "./harness.js";

const bearer = { authorization: `Bearer ${appA.apiKey}` };
const levels = { info: 30, warn: 40, error: 50 };

let server: Harness;
beforeAll(async () => {
  server = await startHarness({
    rateLimit: false,
    handlers: {
      findWebhooks: () => {
        throw new Error("boom");
      },
      readWebhook: () => {
        throw new ApiProblem("not_implemented", "GET /webhooks/{id} is not implemented yet.");
      },
    },
  });
});
afterAll(() => server.close());

/** Sends a request; its "request completed" line (written on `finish`, which may follow the answer by a moment) and how long the client waited. */
async function completed(path: string, headers: Record<string, string>) {
  const sent = performance.now();
  const response = await send(server, { method: "GET", path }, headers);
  await response.arrayBuffer();
  const waited = performance.now() - sent;
  const id = response.headers.get("x-request-id");
  const line = await vi.waitFor(() => {
    const found = server.logs.find((record) => record.msg === "request completed" && (record.req as { id: string }).id === id);
    if (!found) throw new Error(`no line for ${id} yet`);
    return found as { level: number; res: { statusCode: number }; responseTime: number };
  });
  return { status: response.status, line, waited };
}

describe("the request log line", () => {
  it.each([
    ["a 200", "/widgets/wgt_5a3c8e1f7b92", bearer, 200, levels.info],
    ["a 400", "/widgets/wgt_5a3c8e1f7b92?x=1", bearer, 400, levels.warn],
    ["a 401", "/widgets/wgt_5a3c8e1f7b92", {}, 401, levels.warn],
    ["a 500", "/webhooks", bearer, 500, levels.error],
    ["a 501", "/webhooks/whk_3a7f1c9e5b2d", bearer, 501, levels.warn],
  ])("of %s is written at its level", async (_, path, headers, status, level) => {
    const { status: answered, line } = await completed(path, headers);
    expect(answered).toBe(status);
    expect(line.res.statusCode).toBe(status);
    expect(line.level).toBe(level);
  });

  it("says how long the server took, never more than the client waited", async () => {
    const { line, waited } = await completed("/widgets/wgt_5a3c8e1f7b92", bearer);
    expect(line.responseTime).toBeLessThanOrEqual(Math.ceil(waited));
  });
});

describe("createLogger", () => {
  it("writes at the level given", () => {
    const logger = createLogger("warn");
    expect(logger.level).toBe("warn");
    expect(logger.isLevelEnabled("info")).toBe(false);
    expect(createLogger("silent").isLevelEnabled("fatal")).toBe(false);
  });
});
