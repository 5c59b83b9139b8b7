import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** readWebhook: GET /webhooks/{id} */
export const readWebhook =
  ({ store }: HandlerDeps): Handler<"readWebhook"> =>
  async ({ path, caller }) => ({
    type: operations.readWebhook.responseType,
    result: await store.webhook(caller.applicationId, path.id),
  });

/** findWebhookHistory: GET /webhooks/{id}/history */
export const findWebhookHistory =
  ({ store }: HandlerDeps): Handler<"findWebhookHistory"> =>
  async ({ path, query, caller }) => ({
    type: operations.findWebhookHistory.responseType,
    ...(await store.webhookHistory(caller.applicationId, path.id, query)),
  });

/** findWebhooks: GET /webhooks */
export const findWebhooks =
  ({ store }: HandlerDeps): Handler<"findWebhooks"> =>
  async ({ query, caller }) => ({
    type: operations.findWebhooks.responseType,
    ...(await store.webhooks(caller.applicationId, query)),
  });
