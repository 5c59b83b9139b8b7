// A body full of wrong values costs a bounded answer: arrays over their maxItems are refused
// before the validator walks them, and a problem lists at most 10 errors plus the count of
// the rest. Integer parameters follow a strict decimal grammar with the document's bounds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { arrayBounds } from "../../../server/http/array-bounds.js";
import { loadDocument, operationsOf, resolveRef } from "../../../server/document/load.js";
import { integerProblem } from "../../../server/http/integer-query.js";
import { maxProblemErrors } from "../../../server/problems.js";
import { appA, recordsOfA } from "../../support/demo.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false });
});
afterAll(() => server.close());

const bearer = { authorization: `Bearer ${appA.apiKey}` };
const provider = `/sms/providers/${recordsOfA.smsProviders[0]}`;

describe("a large invalid body", () => {
  it.each([
    ["33,000 empty patterns", { patterns: Array<string>(33_000).fill("") }, "/patterns"],
    ["49,000 numeric countries", { countries: Array<number>(49_000).fill(1) }, "/countries"],
  ])("%s: one error naming the array, an answer under 8 kB", async (_name, body, pointer) => {
    expect(JSON.stringify(body).length).toBeGreaterThan(90_000);
    const response = await send(server, { method: "PUT", path: provider, body }, bearer);
    const text = await response.clone().text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(8_000);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([{ in: "body", pointer, message: expect.stringMatching(/^must NOT have more than \d+ items$/) }]);
  });

  it("lists the first 10 errors and counts the rest in errors_omitted", async () => {
    const patterns = Array.from({ length: 100 }, (_, i) => `not a pattern ${i} ${"!".repeat(i)}`);
    const response = await send(server, { method: "PUT", path: provider, body: { patterns } }, bearer);
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.errors).toHaveLength(maxProblemErrors);
    expect(problem.errors_omitted).toBe(100 - maxProblemErrors);
    expect(problem.detail).toMatch(/and 90 more\.$/);
  });

  it("has no errors_omitted when errors lists them all", async () => {
    const response = await send(server, { method: "PUT", path: provider, body: { patterns: ["!"] } }, bearer);
    const problem = await problemOf(response);
    expect(problem.errors).toHaveLength(1);
    expect(problem).not.toHaveProperty("errors_omitted");
  });
});

describe("array bounds come from the document", () => {
  const document = loadDocument();
  it("every bounded array of every request body is known", () => {
    const update = operationsOf(document).find((o) => o.operationId === "updateSmsProvider")!;
    const body = resolveRef<{ content: Record<string, { schema: unknown }> }>(document, update.operation.requestBody as never);
    const bounds = arrayBounds(document, body.content["application/json"]!.schema);
    expect(bounds.get("/patterns")).toBe(100);
    expect(bounds.get("/countries")).toBe(250);
  });
});

describe("integer parameters", () => {
  it.each(["0x10", "1e1", "%2010", "10.0", "+10", "010", "", "١٠"])("limit=%s is refused", async (limit) => {
    const response = await send(server, { method: "GET", path: `/reports/encryption?limit=${limit}` }, bearer);
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([{ in: "query", name: "limit", message: expect.stringMatching(/^must be a decimal integer .*\(Page size/) }]);
  });

  it("page=9999999999999999999999 is refused by the document's maximum, not answered as page 1e+22", async () => {
    const response = await send(server, { method: "GET", path: "/reports/encryption?page=9999999999999999999999" }, bearer);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([{ in: "query", name: "page", message: expect.stringMatching(/^must be <= 1000000 /) }]);
  });

  it("decimal values within bounds are served", async () => {
    const response = await send(server, { method: "GET", path: "/reports/encryption?limit=20&page=1000000" }, bearer);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { meta: { current_page: number } }).meta.current_page).toBe(1000000);
  });

  it("compares values past 2^53 exactly", () => {
    expect(integerProblem("9007199254740993", { maximum: 9007199254740992 })).toBe("must be <= 9007199254740992");
    expect(integerProblem("-3", { minimum: 0 })).toBe("must be >= 0");
    expect(integerProblem("-0", {})).toMatch(/^must be a decimal integer/);
  });
});

describe("oversizeArrays", () => {
  it("visits only the places the bounds name, so deep nesting costs nothing", async () => {
    const { oversizeArrays } = await import("../../../server/http/array-bounds.js");
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(oversizeArrays({ other: deep, patterns: [deep] }, new Map([["/patterns", 100]]))).toEqual([]);
    expect(oversizeArrays({ a: [{ b: [1, 2, 3] }] }, new Map([["/a/*/b", 2]]))).toEqual([{ in: "body", pointer: "/a/0/b", message: "must NOT have more than 2 items" }]);
  });
});
