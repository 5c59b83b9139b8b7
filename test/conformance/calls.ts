// One valid request per operation, in two forms: a typed call through the generated client
// (ids and bodies are the document's examples, i.e. application A's demo records), and the
// same request as plain data for fetch, to send it without credentials or with bad values.
import type { OperationId } from "../../generated/operations.js";
import type { components } from "../../generated/schema.js";
import { exampleBody, exampleId } from "../support/document.js";
import { hasId, schemeOf, validRequest } from "../support/requests.js";
import type { Api, RawRequest } from "./http.js";

export { hasId, schemeOf };

type Schemas = components["schemas"];

/** What a check may change about an operation's valid request made through the client. */
export interface CallInput {
  /** The `{id}` to ask for; the operation's example id when left out. */
  id?: string;
  /** Paging of the list operations. */
  limit?: number;
  page?: number;
}

const withId = (operationId: OperationId, input: CallInput) => ({ id: input.id ?? exampleId(operationId) });
const paging = ({ limit = 10, page = 1 }: CallInput) => ({ limit, page });

/** The valid request of every operation through the generated client; a missing one does not compile. */
export const clientCalls: { [K in OperationId]: (api: Api, input?: CallInput) => Promise<unknown> } = {
  readWidget: (api, input = {}) => api.GET("/widgets/{id}", { params: { path: withId("readWidget", input) } }),
  findUserActivity: (api, input = {}) =>
    api.GET("/users/{id}/activity", { params: { path: withId("findUserActivity", input), query: paging(input) } }),
  findEncryptionReports: (api, input = {}) => api.GET("/reports/encryption", { params: { query: paging(input) } }),
  // `{}` is the documented no-op: valid everywhere and leaves a stateful target as it was.
  updateSmsProvider: (api, input = {}) =>
    api.PUT("/sms/providers/{id}", { params: { path: withId("updateSmsProvider", input) }, body: {} }),
  saveEmailTransport: (api) =>
    api.POST("/custom/emails", { body: exampleBody("saveEmailTransport") as Schemas["EmailSettingsSave"] }),
  createNotification: (api) =>
    api.POST("/notifications", { body: exampleBody("createNotification") as Schemas["NotificationCreate"] }),
  readWebhook: (api, input = {}) => api.GET("/webhooks/{id}", { params: { path: withId("readWebhook", input) } }),
  findWebhookHistory: (api, input = {}) =>
    api.GET("/webhooks/{id}/history", { params: { path: withId("findWebhookHistory", input), query: paging(input) } }),
  findWebhooks: (api, input = {}) => api.GET("/webhooks", { params: { query: paging(input) } }),
};

/** The operation's valid request as plain data (its example id and body, its own credentials). */
export function rawRequest(operationId: OperationId): RawRequest {
  const { method, path, body } = validRequest(operationId);
  return { method, path, credentials: schemeOf(operationId), ...(body !== undefined ? { body } : {}) };
}

/** An id of the operation's kind (same prefix as its example) that no demo record has. */
export function unknownId(operationId: OperationId): string {
  return `${exampleId(operationId).split("_")[0]}_000000000000`;
}
