// The request log carries an allow-list of headers, each cut to a bounded length: Cookie and
// Proxy-Authorization never reach it, and a 15 kB junk header cannot make a 15 kB line.
import { afterAll, beforeAll, expect, it } from "vitest";
import { maxLoggedHeaderLength } from "../../../server/http/logging.js";
import { send, startHarness, type Harness } from "./harness.js";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false });
});
afterAll(() => server.close());

it("a 401 with Cookie, Proxy-Authorization and a 15 kB header logs a small line without them", async () => {
  const response = await send(
    server,
    { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" },
    {
      authorization: "Bearer nope",
      cookie: "session=s3cr3t-cookie",
      "proxy-authorization": "Basic cHJveHk6c2VjcmV0",
      "x-junk": "j".repeat(15_000),
      "user-agent": "u".repeat(500),
      "x-request-id": "log-headers",
    },
  );
  expect(response.status).toBe(401);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const line = server.rawLogs.find((raw) => raw.includes('"log-headers"') && raw.includes("request completed"));
  expect(line).toBeDefined();
  expect(line!.length).toBeLessThan(2_000);
  expect(line).not.toContain("s3cr3t-cookie");
  expect(line).not.toContain("cHJveHk6c2VjcmV0");
  expect(line).not.toContain("x-junk");
  const headers = (JSON.parse(line!) as { req: { headers: Record<string, string> } }).req.headers;
  expect(headers.authorization).toBe("[Redacted]");
  expect(headers["user-agent"]).toBe(`${"u".repeat(maxLoggedHeaderLength)}…[500 characters]`);
});
