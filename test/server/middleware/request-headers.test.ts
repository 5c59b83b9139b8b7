// Request and response headers the attack found unguarded: a credential header sent twice is
// a 400 whichever copy is good (a proxy taking the last copy would disagree with Node taking
// the first), and every answer carries nosniff and no-store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repeatedCredentialHeaders } from "../../../server/middleware/duplicate-credentials.js";
import { rawRequest } from "../../bad-input/raw-http.js";
import { appA, appB } from "../../support/demo.js";
import { send, startHarness, type Harness } from "./harness.js";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false });
});
afterAll(() => server.close());

const origin = () => new URL(server.url);
const widget = "/v1/widgets/wgt_5a3c8e1f7b92";
const good = `Bearer ${appA.apiKey}`;
const bad = `Bearer ${appB.apiKey}x`;

describe("a credential header sent twice", () => {
  it.each([
    ["good then bad", good, bad],
    ["bad then good", bad, good],
    ["good twice", good, good],
  ])("Authorization %s: 400 naming the header", async (_name, first, second) => {
    const response = await rawRequest(origin(), {
      method: "GET",
      target: widget,
      headers: [
        ["Authorization", first],
        ["authorization", second],
      ],
    });
    expect(response.status).toBe(400);
    const problem = JSON.parse(response.body) as { code: string; errors: unknown[] };
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors).toEqual([{ in: "header", name: "authorization", message: "must be sent once" }]);
  });

  it("X-Api-Key or X-Api-Secret twice: 400", async () => {
    for (const repeated of ["X-Api-Key", "X-Api-Secret"]) {
      const headers: [string, string][] = [
        ["X-Api-Key", appA.apiKey],
        ["X-Api-Secret", appA.apiSecret],
        [repeated, "other"],
      ];
      const response = await rawRequest(origin(), {
        method: "POST",
        target: "/v1/notifications",
        headers: [...headers, ["Content-Type", "application/json"]],
        body: "{}",
      });
      expect(response.status, repeated).toBe(400);
      expect(response.body).toContain(repeated.toLowerCase());
    }
  });

  it("counts names without case and ignores other repeated headers", () => {
    expect(repeatedCredentialHeaders(["X-API-KEY", "a", "x-api-key", "b", "Accept", "x", "accept", "y"])).toEqual(["x-api-key"]);
  });
});

describe("response headers", () => {
  it.each([
    ["an authenticated 200", { authorization: good }, 200],
    ["a 401", { authorization: bad }, 401],
  ])("%s carries nosniff and no-store", async (_name, headers, status) => {
    const response = await send(server, { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, headers);
    expect(response.status).toBe(status);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
