// The security matrix: every operation of the document × {no credentials, the other scheme,
// both schemes, unknown key, key without secret, wrong secret, right key}. Only the
// operation's own scheme with valid values is let in; everything else is 401, with
// `WWW-Authenticate: Bearer` on bearer operations. Method and path come from the generated
// operations table, so a new operation is covered without editing this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "@authsvc/app-api-contract";
import { operations, type OperationId } from "../../../generated/operations.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";
import { appA, appB } from "../../support/demo.js";
import { exampleId } from "../../support/document.js";
import { credentialsFor, operationIds, usesBearer, validRequest } from "../../support/requests.js";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ rateLimit: false });
});
afterAll(() => server.close());

type Headers = Record<string, string>;
type Case = { name: string; headers: (id: OperationId) => Headers; status: number; only?: "bearer" | "pair" };

const cases: Case[] = [
  { name: "no credentials", headers: () => ({}), status: 401 },
  {
    name: "the other scheme",
    headers: (id): Headers => (usesBearer(id) ? { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret } : { authorization: `Bearer ${appA.apiKey}` }),
    status: 401,
  },
  {
    name: "both schemes at once",
    headers: () => ({ authorization: `Bearer ${appA.apiKey}`, "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret }),
    status: 401,
  },
  {
    name: "an unknown key",
    headers: (id): Headers =>
      usesBearer(id) ? { authorization: "Bearer ak_live_unknown_0000000000000000" } : { "x-api-key": "ak_live_unknown_0000000000000000", "x-api-secret": appA.apiSecret },
    status: 401,
  },
  { name: "a malformed Authorization header", headers: () => ({ authorization: `Basic ${appA.apiKey}` }), status: 401, only: "bearer" },
  { name: "a key without its secret", headers: () => ({ "x-api-key": appA.apiKey }), status: 401, only: "pair" },
  { name: "a secret without its key", headers: () => ({ "x-api-secret": appA.apiSecret }), status: 401, only: "pair" },
  { name: "the key with another application's secret", headers: () => ({ "x-api-key": appA.apiKey, "x-api-secret": appB.apiSecret }), status: 401, only: "pair" },
  { name: "the right key", headers: (id) => credentialsFor(id, appA), status: 200 },
];

describe.each(operationIds)("%s", (id) => {
  const applicable = cases.filter((c) => !c.only || (c.only === "bearer") === usesBearer(id));
  const refusals = applicable.filter((c) => c.status === 401);
  const admissions = applicable.filter((c) => c.status === 200);

  it("has refusals and the right key among its cases", () => {
    expect(refusals.length).toBeGreaterThan(0);
    expect(admissions.map((c) => c.name)).toEqual(["the right key"]);
    expect(refusals.length + admissions.length).toBe(applicable.length);
  });

  it.each(refusals)("$name → 401", async ({ headers }) => {
    const response = await send(server, validRequest(id), headers(id));
    expect(response.status).toBe(401);
    const problem = await problemOf(response);
    expect(problem.code).toBe("unauthorized");
    expect(response.headers.get("www-authenticate")).toBe(usesBearer(id) ? "Bearer" : null);
  });

  it.each(admissions)("$name → its success status", async ({ headers }) => {
    const response = await send(server, validRequest(id), headers(id));
    expect(response.status).toBe(operations[id].successStatus);
    // A success without a body (a DELETE's 204) has no envelope to name the operation.
    if (operations[id].responseType === null) expect(await response.text()).toBe("");
    else expect(((await response.json()) as { type: string }).type).toBe(operations[id].responseType);
  });
});

describe("through the generated client", () => {
  // Its own server: the matrix above has run every operation once, deletes included.
  let fresh: Harness;
  beforeAll(async () => {
    fresh = await startHarness({ rateLimit: false });
  });
  afterAll(() => fresh.close());

  it.each(operationIds)("%s answers its success status with the right credentials", async (id) => {
    const client = createApiClient({ baseUrl: fresh.url, ...appA });
    const request = validRequest(id);
    const op = operations[id];
    const pathId = /\{id\}/.test(op.path) ? decodeURIComponent(request.path.split("/")[op.path.split("/").indexOf("{id}")]!) : undefined;
    // The table supplies method and path; the client's GET/PUT/POST are typed per path.
    type Call = (path: string, init: object) => Promise<{ data?: { type: string }; response: Response }>;
    const call = (client as unknown as Record<string, Call>)[op.method.toUpperCase()]!;
    const { data, response } = await call(op.path, {
      ...(pathId ? { params: { path: { id: pathId } } } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    expect(response.status).toBe(op.successStatus);
    expect(data?.type).toBe(op.responseType ?? undefined);
  });

  it("refuses another application's records with 404, not 401", async () => {
    const globexClient = createApiClient({ baseUrl: server.url, apiKey: appB.apiKey });
    const { error, response } = await globexClient.GET("/widgets/{id}", { params: { path: { id: exampleId("readWidget") } } });
    expect(response.status).toBe(404);
    expect(error?.code).toBe("not_found");
  });
});
