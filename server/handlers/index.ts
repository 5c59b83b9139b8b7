// The handler of every operation, keyed by operationId (the contract's typed map: a
// missing handler or an off-contract body fails to compile). Handlers only pass the
// validated input to the store and wrap its answer in the operation's envelope.
import type { Handlers } from "../contract-layer/contract.js";
import type { HandlerDeps } from "./deps.js";
import { saveEmailTransport } from "./email-transport.js";
import { findEncryptionReports } from "./encryption-reports.js";
import { createNotification } from "./notifications.js";
import { updateSmsProvider } from "./sms-providers.js";
import { findUserActivity } from "./user-activity.js";
import { findWebhookHistory, findWebhooks, readWebhook } from "./webhooks.js";
import { readWidget } from "./widgets.js";

export type { HandlerDeps } from "./deps.js";

/** The nine handlers over one store and clock. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    readWidget: readWidget(deps),
    findUserActivity: findUserActivity(deps),
    findEncryptionReports: findEncryptionReports(deps),
    updateSmsProvider: updateSmsProvider(deps),
    saveEmailTransport: saveEmailTransport(deps),
    createNotification: createNotification(deps),
    readWebhook: readWebhook(deps),
    findWebhookHistory: findWebhookHistory(deps),
    findWebhooks: findWebhooks(deps),
  };
}
