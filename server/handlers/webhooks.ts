import type { Handler } from "../contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** readWebhook: GET /webhooks/{id} */
export const readWebhook =
  ({ store }: HandlerDeps): Handler<"readWebhook"> =>
  ({ path, caller }) => ({
    type: operations.readWebhook.responseType,
    result: store.webhook(caller.applicationId, path.id),
  });

/** findWebhookHistory: GET /webhooks/{id}/history */
export const findWebhookHistory =
  ({ store }: HandlerDeps): Handler<"findWebhookHistory"> =>
  ({ path, query, caller }) => ({
    type: operations.findWebhookHistory.responseType,
    ...store.webhookHistory(caller.applicationId, path.id, query),
  });

/** findWebhooks: GET /webhooks */
export const findWebhooks =
  ({ store }: HandlerDeps): Handler<"findWebhooks"> =>
  ({ query, caller }) => ({
    type: operations.findWebhooks.responseType,
    ...store.webhooks(caller.applicationId, query),
  });
