// Generated from generated/openapi.json by scripts/generate-operations.ts. Do not edit: run `npm run generate`.

/** The operations of the document, keyed by operationId. */
export const operations = {
  readWidget: {
    method: "get",
    path: "/widgets/{id}",
    successStatus: 200,
    responseType: "api.application.widget.read",
    list: false,
    hasBody: false,
    security: ["bearerAuth"],
  },
  findUserActivity: {
    method: "get",
    path: "/users/{id}/activity",
    successStatus: 200,
    responseType: "api.application.user.activity.find",
    list: true,
    hasBody: false,
    security: ["bearerAuth"],
  },
  findEncryptionReports: {
    method: "get",
    path: "/reports/encryption",
    successStatus: 200,
    responseType: "api.application.reports.encryption",
    list: true,
    hasBody: false,
    security: ["bearerAuth"],
  },
  updateSmsProvider: {
    method: "put",
    path: "/sms/providers/{id}",
    successStatus: 200,
    responseType: "api.application.sms.provider.update",
    list: false,
    hasBody: true,
    security: ["bearerAuth"],
  },
  saveEmailTransport: {
    method: "post",
    path: "/custom/emails",
    successStatus: 200,
    responseType: "api.application.email.save",
    list: false,
    hasBody: true,
    security: ["bearerAuth"],
  },
  createNotification: {
    method: "post",
    path: "/notifications",
    successStatus: 200,
    responseType: "api.application.notification.create",
    list: false,
    hasBody: true,
    security: ["apiKey", "apiSecret"],
  },
  readWebhook: {
    method: "get",
    path: "/webhooks/{id}",
    successStatus: 200,
    responseType: "api.application.webhook.read",
    list: false,
    hasBody: false,
    security: ["bearerAuth"],
  },
  findWebhookHistory: {
    method: "get",
    path: "/webhooks/{id}/history",
    successStatus: 200,
    responseType: "api.application.webhook.history",
    list: true,
    hasBody: false,
    security: ["bearerAuth"],
  },
  findWebhooks: {
    method: "get",
    path: "/webhooks",
    successStatus: 200,
    responseType: "api.application.webhook.find",
    list: true,
    hasBody: false,
    security: ["bearerAuth"],
  },
} as const;

/** An operationId of the document. */
export type OperationId = keyof typeof operations;
