// The security matrix: every operation of the document × {no credentials, the other scheme,
// both schemes, unknown key, key without secret, wrong secret, right key}. Only the
// operation's own scheme with valid values is let in; everything else is 401, with
// `WWW-Authenticate: Bearer` on bearer operations. Method and path come from the generated
// operations table, so a new operation is covered without editing this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "@authsvc/app-api-contract";
import { operations, type OperationId } from "../../../generated/operations.js";
import type { Request } from "express";
import { callerOf, credentialCheck } from "../../../server/middleware/security.js";
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
type Case = { name: string; headers: (id: OperationId) => Headers; status: number; only?: "bearer" | "pair"; detail?: { bearer?: string; pair?: string } };

// The refusals' details, as server/middleware/security.ts words them: each says what to send instead.
const expectedBearer = "Expected `Authorization: Bearer <API key>`.";
const expectedPair = "Expected both X-Api-Key and X-Api-Secret.";
const notThePair = "This operation takes `Authorization: Bearer <API key>`, not X-Api-Key/X-Api-Secret.";
const notBearer = "This operation takes X-Api-Key and X-Api-Secret, not an Authorization header.";

const cases: Case[] = [
  { name: "no credentials", headers: () => ({}), status: 401, detail: { bearer: expectedBearer, pair: expectedPair } },
  {
    name: "the other scheme",
    headers: (id): Headers => (usesBearer(id) ? { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret } : { authorization: `Bearer ${appA.apiKey}` }),
    status: 401,
    detail: { bearer: notThePair, pair: notBearer },
  },
  {
    name: "both schemes at once",
    headers: () => ({ authorization: `Bearer ${appA.apiKey}`, "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret }),
    status: 401,
    detail: { bearer: notThePair, pair: notBearer },
  },
  {
    name: "an unknown key",
    headers: (id): Headers =>
      usesBearer(id) ? { authorization: "Bearer ak_live_unknown_0000000000000000" } : { "x-api-key": "ak_live_unknown_0000000000000000", "x-api-secret": appA.apiSecret },
    status: 401,
    detail: { bearer: "The API key is not valid.", pair: "The API key and secret are not valid." },
  },
  {
    name: "a malformed Authorization header",
    headers: () => ({ authorization: `Basic ${appA.apiKey}` }),
    status: 401,
    only: "bearer",
    detail: { bearer: expectedBearer },
  },
  { name: "a key without its secret", headers: () => ({ "x-api-key": appA.apiKey }), status: 401, only: "pair", detail: { pair: expectedPair } },
  { name: "a secret without its key", headers: () => ({ "x-api-secret": appA.apiSecret }), status: 401, only: "pair", detail: { pair: expectedPair } },
  {
    name: "the key with another application's secret",
    headers: () => ({ "x-api-key": appA.apiKey, "x-api-secret": appB.apiSecret }),
    status: 401,
    only: "pair",
    detail: { pair: "The API key and secret are not valid." },
  },
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

  it.each(refusals)("$name → 401", async ({ headers, detail }) => {
    const response = await send(server, validRequest(id), headers(id));
    expect(response.status).toBe(401);
    const problem = await problemOf(response);
    expect(problem.code).toBe("unauthorized");
    expect(problem.detail).toBe(detail?.[usesBearer(id) ? "bearer" : "pair"]);
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

describe("the credential check, built per operation", () => {
  const auth = { authenticateBearer: async () => undefined, authenticateKeyPair: async () => undefined };

  it.each([[["apiKey"]], [["bearerAuth", "apiKey"]], [["oauth2"]], [[]]])("refuses the requirement %j when the app is built", (security) => {
    expect(() => credentialCheck(security, auth, "listThings")).toThrow(
      new Error(`listThings requires [${security.join(", ")}]; this layer checks bearerAuth or apiKey + apiSecret`),
    );
  });

  it("takes the key pair's schemes in either order", () => {
    expect(credentialCheck(["apiSecret", "apiKey"], auth, "listThings")).toBeTypeOf("function");
  });

  it("callerOf a request no check ran on throws, naming the likely cause", () => {
    expect(() => callerOf({} as Request)).toThrow(new Error("No authenticated caller on this request: is the operation missing its security?"));
  });
});
