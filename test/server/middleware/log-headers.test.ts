// The request log carries an allow-list of headers, each cut to a bounded length: Cookie and
// Proxy-Authorization never reach it, and a 15 kB junk header cannot make a 15 kB line.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { headersToLog, maxLoggedHeaderLength } from "../../../server/middleware/logging.js";
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

it("logs a value of up to 256 characters whole, and cuts one of 257", async () => {
  const response = await send(
    server,
    { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" },
    {
      "user-agent": "u".repeat(maxLoggedHeaderLength),
      referer: `https://app.example/${"r".repeat(maxLoggedHeaderLength - 19)}`,
      accept: "application/json",
      "x-request-id": "log-bounds",
    },
  );
  expect(response.status).toBe(401);
  const headers = await vi.waitFor(() => {
    const line = server.logs.find((record) => (record.req as { id: string }).id === "log-bounds" && record.msg === "request completed");
    if (!line) throw new Error("no line yet");
    return (line.req as { headers: Record<string, string> }).headers;
  });
  expect(headers["user-agent"]).toBe("u".repeat(maxLoggedHeaderLength));
  expect(headers.referer).toBe(`https://app.example/${"r".repeat(maxLoggedHeaderLength - 20)}…[257 characters]`);
  expect(headers.accept).toBe("application/json");
});

it("joins a header given as a list as Node joins a repeated one", () => {
  expect(headersToLog({ "x-forwarded-for": ["203.0.113.7", "198.51.100.2"], cookie: ["a=b"] })).toEqual({ "x-forwarded-for": "203.0.113.7, 198.51.100.2" });
});
