// The resources of the API as the handlers, rules and stores hold them: exactly the document's
// component schemas (generated types), so a field added to the document reaches every layer.
import type { components } from "../../generated/schema.js";

type Schemas = components["schemas"];
export type Widget = Schemas["Widget"];
export type Activity = Schemas["Activity"];
export type EncryptionReport = Schemas["EncryptionReport"];
export type SmsProvider = Schemas["SmsProvider"];
export type SmsProviderUpdate = Schemas["SmsProviderUpdate"];
export type EmailTransport = Schemas["EmailTransport"];
export type EmailSettingsSave = Schemas["EmailSettingsSave"];
export type SendgridAuth = NonNullable<Schemas["SendgridSettings"]["auth"]>;
export type SesAuth = NonNullable<Schemas["SesSettings"]["auth"]>;
export type NotificationCreate = Schemas["NotificationCreate"];
export type Notification = Schemas["Notification"];
export type Webhook = Schemas["Webhook"];
export type WebhookHistoryRecord = Schemas["WebhookHistoryRecord"];
export type PageMeta = Schemas["PageMeta"];
