// One valid request per operation, in two forms: a typed call through the generated client
// (ids from the target's fixtures, bodies from the document's examples), and the same
// request as plain data for fetch, to send it without credentials or with bad values.
import { operations, type OperationId } from "../generated/operations.js";
import type { components } from "../generated/schema.js";
import type { Need } from "./check.js";
import { exampleBody, exampleId } from "./document.js";
import type { Api, RawRequest } from "./http.js";
import { hasId, schemeOf } from "./requests.js";
import type { Fixtures, IdFixture, Target } from "./target.js";

export { hasId, schemeOf };

type Schemas = components["schemas"];

/**
 * The fixture that fills each operation's `{id}`. An operation with an `{id}` that is not
 * here has no id to ask for: test/conformance/coverage.test.ts names it.
 */
export const idFixtures: { [K in OperationId]?: IdFixture } = {
  readWidget: "widget",
  findUserActivity: "user",
  updateSmsProvider: "smsProvider",
  readWebhook: "webhook",
  findWebhookHistory: "webhook",
};

/**
 * The document's example ids as fixtures: what a mock, which answers the examples whatever
 * the id, holds. A real target names its own records in a fixtures file.
 */
export function exampleFixtures(): Fixtures {
  const fixtures: Fixtures = {};
  for (const [operationId, fixture] of Object.entries(idFixtures) as [OperationId, IdFixture][]) fixtures[fixture] = exampleId(operationId);
  return fixtures;
}

/**
 * The kind of record a deleting operation (DELETE, read from the document) uses up: its
 * checks that reach the record run last, each on a disposable record (Check.consumes).
 */
export function consumedBy(operationId: OperationId): IdFixture | undefined {
  return (operations[operationId].method as string) === "delete" ? idFixtures[operationId] : undefined;
}

/** The fixture an operation's `{id}` needs (none for an operation without one). */
export function idNeeds(operationId: OperationId): Need[] {
  const fixture = idFixtures[operationId];
  return fixture ? [fixture] : [];
}

/** The credentials an operation's valid request carries. */
export const credentialNeeds = (operationId: OperationId): Need[] => (schemeOf(operationId) === "keyPair" ? ["apiSecret"] : []);

/**
 * The `{id}` of the operation's valid request: the target's fixture, else the document's
 * example. Checks answered before any record is looked up (401, 400, 415) run without
 * fixtures; a check that needs the record to exist declares the fixture in `needs`.
 */
export function idFor(target: Target | undefined, operationId: OperationId): string {
  const fixture = idFixtures[operationId];
  return (fixture && target?.fixtures[fixture]) || exampleId(operationId);
}

/** What a check may change about an operation's valid request made through the client. */
export interface CallInput {
  /** The `{id}` to ask for; the operation's fixture when left out. */
  id?: string;
  /** Paging of the list operations. */
  limit?: number;
  page?: number;
}

type Call = (api: Api, target: Target, input?: CallInput) => Promise<unknown>;

const withId = (operationId: OperationId, target: Target, input: CallInput) => ({ id: input.id ?? idFor(target, operationId) });
const paging = ({ limit = 10, page = 1 }: CallInput) => ({ limit, page });

/** The valid request of every operation through the generated client; a missing one does not compile. */
export const clientCalls: { [K in OperationId]: Call } = {
  readWidget: (api, target, input = {}) => api.GET("/widgets/{id}", { params: { path: withId("readWidget", target, input) } }),
  findUserActivity: (api, target, input = {}) => api.GET("/users/{id}/activity", { params: { path: withId("findUserActivity", target, input), query: paging(input) } }),
  findEncryptionReports: (api, _target, input = {}) => api.GET("/reports/encryption", { params: { query: paging(input) } }),
  // `{}` is the documented no-op: valid everywhere and leaves a stateful target as it was.
  updateSmsProvider: (api, target, input = {}) => api.PUT("/sms/providers/{id}", { params: { path: withId("updateSmsProvider", target, input) }, body: {} }),
  saveEmailTransport: (api) => api.POST("/custom/emails", { body: exampleBody("saveEmailTransport") as Schemas["EmailSettingsSave"] }),
  createNotification: (api) => api.POST("/notifications", { body: notificationBody() as Schemas["NotificationCreate"] }),
  readWebhook: (api, target, input = {}) => api.GET("/webhooks/{id}", { params: { path: withId("readWebhook", target, input) } }),
  findWebhookHistory: (api, target, input = {}) =>
    api.GET("/webhooks/{id}/history", { params: { path: withId("findWebhookHistory", target, input), query: paging(input) } }),
  findWebhooks: (api, _target, input = {}) => api.GET("/webhooks", { params: { query: paging(input) } }),
};

/**
 * The notification the checks send: the document's first example sent to everyone
 * (`broadcast`) instead of to its receivers, who are records of the demo data.
 */
export function notificationBody(): Record<string, unknown> {
  const { receivers: _receivers, groups: _groups, ...body } = exampleBody("createNotification") as Record<string, unknown>;
  return { ...body, broadcast: true };
}

/** The operation's valid request as plain data: its `{id}` (idFor), its own credentials, its example body. */
export function rawRequest(operationId: OperationId, target?: Target): RawRequest {
  const { method, path, hasBody } = operations[operationId];
  const id = hasId(operationId) ? idFor(target, operationId) : "";
  const body = operationId === "createNotification" ? notificationBody() : hasBody ? exampleBody(operationId) : undefined;
  return {
    method: method.toUpperCase(),
    path: path.replace("{id}", encodeURIComponent(id)),
    credentials: schemeOf(operationId),
    ...(body !== undefined ? { body } : {}),
  };
}

/** An id of the operation's kind (same prefix as its example) that no record has. */
export function unknownId(operationId: OperationId): string {
  return `${exampleId(operationId).split("_")[0]}_000000000000`;
}
