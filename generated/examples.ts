// Generated from generated/openapi.json by scripts/generate-examples.ts. Do not edit: run `npm run generate`.
import type { components } from "./schema.js";

type Schemas = components["schemas"];

/** `T` with every property and array read-only, as the frozen examples are. */
export type DeepReadonly<T> = T extends (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** `T` with every property and array writable again (what `copyOf` returns). */
export type Mutable<T> = T extends readonly (infer U)[] ? Mutable<U>[] : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** A deep, writable copy of an example, for a test that needs to change one (a request body, say). */
export function copyOf<T>(example: T): Mutable<T> {
  return structuredClone(example) as Mutable<T>;
}

/** The sign-up widget of the demo application (readWidget 200). */
export const WidgetRead = deepFreeze({
  type: "api.application.widget.read",
  result: {
    id: "wgt_5a3c8e1f7b92",
    lang: "en",
    name: "Sign-up form",
    type: "REGISTER",
    is_active: true,
    has_watermark: false,
    environment: "LIVE",
    organization_id: "org_4b7d2e91c0a3",
    application_id: "app_8c1f5e20d9b4",
    created_at: "2026-01-31T09:15:00.000Z",
    color: {
      primary: "#1a73e8",
      secondary: "#f1f3f4",
      link: "#1558d6",
      error: "",
    },
    path: "/register",
    domain: {
      id: "dom_3e8b1c6f2a7d",
      protocol: "HTTPS",
      hostname: "login.acme-shop.example",
      port: 443,
      is_sandbox: false,
      organization_id: "org_4b7d2e91c0a3",
      href: "https://login.acme-shop.example",
      is_verified: true,
      verify_key: "vk_9f2c7a1e4b8d6053",
    },
  },
} as const satisfies DeepReadonly<Schemas["WidgetReadResponse"]>);

/** An id with a space (readWidget 400). */
export const ReadWidgetValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: 'One value of the request is invalid. path id: must match pattern "^[A-Za-z0-9_-]+$" (An identifier (1–64 characters of A-Z a-z 0-9 _ -)).',
  instance: "/v1/widgets/wgt%205a3c8e1f7b92",
  code: "validation_failed",
  errors: [
    {
      in: "path",
      name: "id",
      message: 'must match pattern "^[A-Za-z0-9_-]+$" (An identifier (1–64 characters of A-Z a-z 0-9 _ -))',
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (readWidget 401). */
export const ReadWidgetUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/widgets/wgt_5a3c8e1f7b92",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unknown widget id (readWidget 404). */
export const ReadWidgetNotFoundProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_found",
  title: "Not found",
  status: 404,
  detail: "Widget wgt_0000000000 was not found.",
  instance: "/v1/widgets/wgt_0000000000",
  code: "not_found",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (findEncryptionReports 429). */
export const RateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/reports/encryption",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (findWebhooks 500). */
export const InternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/webhooks",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (findEncryptionReports 501). */
export const NotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/reports/encryption",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (findEncryptionReports 503). */
export const ServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/reports/encryption",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** The latest activity of a user, newest first (findUserActivity 200). */
export const UserActivityFind = deepFreeze({
  type: "api.application.user.activity.find",
  result: [
    {
      id: "act_1f8c3a9e5d2b",
      type: "AUTHENTICATION",
      method: "EMAIL",
      status: "APPROVED",
      organization_id: "org_4b7d2e91c0a3",
      application_id: "app_8c1f5e20d9b4",
      account_id: "usr_7d2e9a4c1b6f",
      profile_id: "prf_3c9a6e1d8f2b",
      ip_source: "203.0.113.24",
      ip_device: "198.51.100.7",
      created_at: "2026-03-02T14:05:11.482Z",
      authentication: {
        encryption_key: true,
        session: {
          sent: true,
        },
      },
    },
    {
      id: "act_6d2b8f1e4a9c",
      type: "AUTHENTICATION",
      method: "EMAIL",
      status: "APPROVED",
      organization_id: "org_4b7d2e91c0a3",
      application_id: "app_8c1f5e20d9b4",
      account_id: "usr_7d2e9a4c1b6f",
      profile_id: "prf_3c9a6e1d8f2b",
      ip_source: "2001:db8::7",
      ip_device: "2001:db8::7",
      created_at: "2026-02-27T08:41:03.107Z",
      authentication: {
        encryption_key: false,
        session: {
          sent: true,
        },
      },
    },
  ],
  meta: {
    total_count: 2,
    page_count: 1,
    current_count: 2,
    current_page: 1,
  },
} as const satisfies DeepReadonly<Schemas["UserActivityFindResponse"]>);

/** A page size under 10 (findUserActivity 400). */
export const FindUserActivityValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. query limit: must be >= 10 (Page size, 10 to 100).",
  instance: "/v1/users/usr_7d2e9a4c1b6f/activity",
  code: "validation_failed",
  errors: [
    {
      in: "query",
      name: "limit",
      message: "must be >= 10 (Page size, 10 to 100)",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (findUserActivity 401). */
export const FindUserActivityUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/users/usr_7d2e9a4c1b6f/activity",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unknown user id (findUserActivity 404). */
export const FindUserActivityNotFoundProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_found",
  title: "Not found",
  status: 404,
  detail: "User usr_0000000000 was not found.",
  instance: "/v1/users/usr_0000000000/activity",
  code: "not_found",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Encryption-key reports, newest first (findEncryptionReports 200). */
export const EncryptionReportsFind = deepFreeze({
  type: "api.application.reports.encryption",
  result: [
    {
      id: "rep_6b2d9f4a1c8e",
      type: "ENCRYPTION_KEY",
      method: "EMAIL",
      status: "NEW",
      organization_id: "org_4b7d2e91c0a3",
      application_id: "app_8c1f5e20d9b4",
      account_id: "usr_7d2e9a4c1b6f",
      profile_id: "prf_3c9a6e1d8f2b",
      ip_source: "203.0.113.24",
      ip_device: "198.51.100.7",
      created_at: "2026-03-02T14:05:12.015Z",
      country: {
        code: "ES",
        name: "Spain",
      },
      region: {
        code: "MD",
        name: "Madrid",
      },
      device: {
        id: "dev_4a9c2e7b1f3d",
        type: "ANDROID",
        version: "14",
      },
      user: {
        id: 1042,
        email: "maria.lopez@acme-shop.example",
        account: {
          id: 1042,
          first_name: "María",
          last_name: "López",
          image: "https://cdn.acme-shop.example/avatars/1042.png",
          is_active: true,
        },
      },
    },
    {
      id: "rep_2e7c1a9f5b3d",
      type: "ENCRYPTION_KEY",
      method: "EMAIL",
      status: "NEW",
      organization_id: "org_4b7d2e91c0a3",
      application_id: "app_8c1f5e20d9b4",
      account_id: "usr_1c5e8a3d7f2b",
      profile_id: "prf_8b1d4f7a2c6e",
      ip_source: "2001:db8::42",
      ip_device: "2001:db8::42",
      created_at: "2026-02-27T08:41:04.220Z",
      country: {
        code: "PT",
        name: "Portugal",
      },
      region: {
        code: "11",
        name: "Lisboa",
      },
      device: {
        id: "dev_7e1b3d9a5c2f",
        type: "IOS",
        version: "17.4",
      },
      user: {
        id: 1043,
        email: "tomas.reyes@acme-shop.example",
        account: {
          id: 1043,
          first_name: "Tomás",
          last_name: "Reyes",
          image: "https://cdn.acme-shop.example/avatars/1043.png",
          is_active: true,
        },
      },
    },
  ],
  meta: {
    total_count: 2,
    page_count: 1,
    current_count: 2,
    current_page: 1,
  },
} as const satisfies DeepReadonly<Schemas["EncryptionReportsResponse"]>);

/** A start_date in milliseconds (findEncryptionReports 400). */
export const FindEncryptionReportsValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. query start_date: must be <= 9999999999 (Unix time in seconds (0 to 9999999999, i.e. up to the year 2286)).",
  instance: "/v1/reports/encryption",
  code: "validation_failed",
  errors: [
    {
      in: "query",
      name: "start_date",
      message: "must be <= 9999999999 (Unix time in seconds (0 to 9999999999, i.e. up to the year 2286))",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** start_date after end_date (findEncryptionReports 400). */
export const FindEncryptionReportsInvertedDatesProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "start_date must not be after end_date.",
  instance: "/v1/reports/encryption",
  code: "validation_failed",
  errors: [
    {
      in: "query",
      name: "start_date",
      message: "start_date (1767225600) is after end_date (1767139200)",
    },
    {
      in: "query",
      name: "end_date",
      message: "start_date (1767225600) is after end_date (1767139200)",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (findEncryptionReports 401). */
export const FindEncryptionReportsUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/reports/encryption",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Move the backup gateway up and widen it to France (updateSmsProvider request). */
export const SmsProviderUpdateRequest = deepFreeze({
  sort: "UP",
  countries: ["ES", "PT", "FR"],
  patterns: ["+34", "+351", "+33"],
  log_messages: "FULL",
} as const satisfies DeepReadonly<Schemas["SmsProviderUpdate"]>);

/** An empty body changes nothing (updateSmsProvider request). */
export const SmsProviderUpdateEmpty = deepFreeze({} as const satisfies DeepReadonly<Schemas["SmsProviderUpdate"]>);

/** The backup gateway after moving up (updateSmsProvider 200). */
export const SmsProviderUpdate = deepFreeze({
  type: "api.application.sms.provider.update",
  result: {
    id: "sms_9e4a1d7c3b2f",
    type: "VONAGE",
    name: "Backup gateway",
    log_messages: "FULL",
    countries: ["ES", "PT", "FR"],
    patterns: ["+34", "+351", "+33"],
    phone_types: ["MOBILE"],
    is_default: false,
    is_verified: true,
    is_active: true,
    sort: 1,
    created_at: "2026-01-12T10:20:00.000Z",
  },
} as const satisfies DeepReadonly<Schemas["SmsProviderUpdateResponse"]>);

/** A sort that is not UP or DOWN (updateSmsProvider 400). */
export const UpdateSmsProviderValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. body /sort: must be equal to one of the allowed values: UP, DOWN.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "validation_failed",
  errors: [
    {
      in: "body",
      pointer: "/sort",
      message: "must be equal to one of the allowed values: UP, DOWN",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** A body that is not JSON (malformed_json) (updateSmsProvider 400). */
export const UpdateSmsProviderMalformedJsonProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/malformed_json",
  title: "Malformed JSON",
  status: 400,
  detail: "The request body is not valid JSON.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "malformed_json",
  errors: [
    {
      in: "body",
      pointer: "",
      message: "not valid JSON",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (updateSmsProvider 401). */
export const UpdateSmsProviderUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unknown SMS provider id (updateSmsProvider 404). */
export const UpdateSmsProviderNotFoundProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_found",
  title: "Not found",
  status: 404,
  detail: "SMS provider sms_0000000000 was not found.",
  instance: "/v1/sms/providers/sms_0000000000",
  code: "not_found",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Un-defaulting the default provider (updateSmsProvider 409). */
export const ConflictProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/conflict",
  title: "Conflict",
  status: 409,
  detail: "SMS provider sms_2c7e9b4f1a6d is the default; make another provider the default instead.",
  instance: "/v1/sms/providers/sms_2c7e9b4f1a6d",
  code: "conflict",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Body over 100 kB (createNotification 413). */
export const PayloadTooLargeProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/payload_too_large",
  title: "Payload too large",
  status: 413,
  detail: "The JSON body is over the 100 kB limit.",
  instance: "/v1/notifications",
  code: "payload_too_large",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Body not JSON (saveEmailTransport 415). */
export const UnsupportedMediaTypeProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unsupported_media_type",
  title: "Unsupported media type",
  status: 415,
  detail: "The body must be application/json.",
  instance: "/v1/custom/emails",
  code: "unsupported_media_type",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Switch the transport to Amazon SES (saveEmailTransport request). */
export const EmailSaveSes = deepFreeze({
  type: "SES",
  email_from: "no-reply@acme-shop.example",
  email_admin: "admin@acme-shop.example",
  email_reply: "support@acme-shop.example",
  from_name: "Acme Shop",
  auth: {
    region: "eu-west-1",
    accessKeyId: "AKIAIOSFODNN7EXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  },
} as const satisfies DeepReadonly<Schemas["EmailSettingsSave"]>);

/** Use SendGrid (saveEmailTransport request). */
export const EmailSaveSendgrid = deepFreeze({
  type: "SENDGRID",
  email_from: "no-reply@acme-shop.example",
  email_admin: "admin@acme-shop.example",
  from_name: "Acme Shop",
  auth: {
    api_key: "SG.demo-9f2c7a1e4b8d6053.rotate-me",
  },
} as const satisfies DeepReadonly<Schemas["EmailSettingsSave"]>);

/** The transport after switching to SES (same id, counters kept) (saveEmailTransport 200). */
export const EmailSave = deepFreeze({
  type: "api.application.email.save",
  result: {
    id: "eml_8f3b1e6c2a9d",
    type: "SES",
    is_verified: false,
    auth: "enc:v1:Qm9ndXMtdG9rZW4tZm9yLWRvY3M.c2FtcGxl.dGFn",
    email_from: "no-reply@acme-shop.example",
    email_reply: "support@acme-shop.example",
    email_admin: "admin@acme-shop.example",
    from_name: "Acme Shop",
    domain: "acme-shop.example",
    send_count: 1280,
    fail_count: 3,
    organization_id: "org_4b7d2e91c0a3",
    application_id: "app_8c1f5e20d9b4",
    created_at: "2026-01-20T11:00:00.000Z",
    region: "eu-west-1",
  },
} as const satisfies DeepReadonly<Schemas["EmailSaveResponse"]>);

/** An unknown provider type (saveEmailTransport 400). */
export const SaveEmailTransportValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. body /type: must be equal to one of the allowed values: SENDGRID, SES.",
  instance: "/v1/custom/emails",
  code: "validation_failed",
  errors: [
    {
      in: "body",
      pointer: "/type",
      message: "must be equal to one of the allowed values: SENDGRID, SES",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** A body that is not JSON (malformed_json) (saveEmailTransport 400). */
export const SaveEmailTransportMalformedJsonProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/malformed_json",
  title: "Malformed JSON",
  status: 400,
  detail: "The request body is not valid JSON.",
  instance: "/v1/custom/emails",
  code: "malformed_json",
  errors: [
    {
      in: "body",
      pointer: "",
      message: "not valid JSON",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** A change of type without auth (saveEmailTransport 400). */
export const SaveEmailTransportAuthRequiredProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "auth is required on a change of type from SENDGRID to SES.",
  instance: "/v1/custom/emails",
  code: "validation_failed",
  errors: [
    {
      in: "body",
      pointer: "/auth",
      message: "required for a change of type from SENDGRID to SES",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (saveEmailTransport 401). */
export const SaveEmailTransportUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/custom/emails",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** A simple notice to one user, by id and by e-mail (createNotification request). */
export const NotificationCreateSimple = deepFreeze({
  name: "Maintenance notice",
  type: "SIMPLE",
  title: "Scheduled maintenance",
  content: "Sign-in will be unavailable on 15 January 2030 from 09:00 to 09:30 UTC.",
  level: 1,
  receivers: ["usr_7d2e9a4c1b6f", "tomas.reyes@acme-shop.example"],
  send_at: 1894698000,
} as const satisfies DeepReadonly<Schemas["NotificationCreate"]>);

/** A survey prompt to a user group, at a set time (createNotification request). */
export const NotificationCreateSurvey = deepFreeze({
  name: "Checkout survey",
  type: "SURVEY",
  title: "How was checkout today?",
  content: "Two minutes of your time help us make paying faster.",
  level: 2,
  groups: [7],
  close_text: "Not now",
  submit_text: "Send answer",
  send_at: 1894698000,
} as const satisfies DeepReadonly<Schemas["NotificationCreate"]>);

/** A single-choice question broadcast to every user, sent now (createNotification request). */
export const NotificationCreateRadio = deepFreeze({
  type: "RADIO",
  title: "Preferred contact time",
  content: "When should our support team call you back?",
  broadcast: true,
  send_at: "now",
  radio: [
    {
      text: "Morning",
      selected: true,
    },
    {
      text: "Afternoon",
    },
    {
      text: "Evening",
    },
  ],
} as const satisfies DeepReadonly<Schemas["NotificationCreate"]>);

/** A multiple-choice question to one user by e-mail, sent now (createNotification request). */
export const NotificationCreateCheckbox = deepFreeze({
  type: "CHECKBOX",
  title: "Which updates do you want?",
  content: "Pick every kind of message you would like to receive.",
  receivers: ["maria.lopez@acme-shop.example"],
  checkbox: [
    {
      text: "Security alerts",
      selected: true,
    },
    {
      text: "Product news",
    },
    {
      text: "Billing reminders",
    },
  ],
} as const satisfies DeepReadonly<Schemas["NotificationCreate"]>);

/** The scheduled notice (createNotification 200). */
export const NotificationCreate = deepFreeze({
  type: "api.application.notification.create",
  result: {
    id: "ntf_4d8a2f6c1e9b",
    type: "SIMPLE",
    status: "PENDING",
    title: "Scheduled maintenance",
    content: "Sign-in will be unavailable on 15 January 2030 from 09:00 to 09:30 UTC.",
    level: 1,
    open_count: 0,
    send_at: "2030-01-15T09:00:00.000Z",
    name: "Maintenance notice",
    receivers: ["usr_7d2e9a4c1b6f", "tomas.reyes@acme-shop.example"],
  },
} as const satisfies DeepReadonly<Schemas["NotificationCreateResponse"]>);

/** An empty title (createNotification 400). */
export const CreateNotificationValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. body /title: must NOT have fewer than 1 characters.",
  instance: "/v1/notifications",
  code: "validation_failed",
  errors: [
    {
      in: "body",
      pointer: "/title",
      message: "must NOT have fewer than 1 characters",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** A body that is not JSON (malformed_json) (createNotification 400). */
export const CreateNotificationMalformedJsonProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/malformed_json",
  title: "Malformed JSON",
  status: 400,
  detail: "The request body is not valid JSON.",
  instance: "/v1/notifications",
  code: "malformed_json",
  errors: [
    {
      in: "body",
      pointer: "",
      message: "not valid JSON",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** A receiver who never logged in (createNotification 400). */
export const CreateNotificationUnknownReceiverProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "The notification cannot be scheduled.",
  instance: "/v1/notifications",
  code: "validation_failed",
  errors: [
    {
      in: "body",
      pointer: "/receivers/0",
      message: "usr_no_such_user is not a user of this application who has logged in",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Only one of the key pair (createNotification 401). */
export const CreateNotificationUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Expected both X-Api-Key and X-Api-Secret.",
  instance: "/v1/notifications",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** The logout webhook (readWebhook 200). */
export const WebhookRead = deepFreeze({
  type: "api.application.webhook.read",
  result: {
    id: "whk_3a7f1c9e5b2d",
    event: "logout",
    url: "https://hooks.acme-shop.example/auth/logout",
    is_active: true,
    organization_id: "org_4b7d2e91c0a3",
    application_id: "app_8c1f5e20d9b4",
    created_at: "2026-02-10T10:00:00.000Z",
  },
} as const satisfies DeepReadonly<Schemas["WebhookReadResponse"]>);

/** An id with a space (readWebhook 400). */
export const ReadWebhookValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: 'One value of the request is invalid. path id: must match pattern "^[A-Za-z0-9_-]+$" (An identifier (1–64 characters of A-Z a-z 0-9 _ -)).',
  instance: "/v1/webhooks/whk%203a7f1c9e5b2d",
  code: "validation_failed",
  errors: [
    {
      in: "path",
      name: "id",
      message: 'must match pattern "^[A-Za-z0-9_-]+$" (An identifier (1–64 characters of A-Z a-z 0-9 _ -))',
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (readWebhook 401). */
export const ReadWebhookUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unknown webhook id (readWebhook 404). */
export const ReadWebhookNotFoundProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_found",
  title: "Not found",
  status: 404,
  detail: "Webhook whk_0000000000 was not found.",
  instance: "/v1/webhooks/whk_0000000000",
  code: "not_found",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Deliveries of the logout webhook, newest first (findWebhookHistory 200). */
export const WebhookHistory = deepFreeze({
  type: "api.application.webhook.history",
  result: [
    {
      id: "whh_5c9e2a7f1d3b",
      webhook_id: "whk_3a7f1c9e5b2d",
      event: "logout",
      url: "https://hooks.acme-shop.example/auth/logout",
      status: "SUCCESS",
      response_code: 200,
      duration_ms: 182,
      attempt: 2,
      error: null,
      created_at: "2026-03-02T14:05:42.300Z",
    },
    {
      id: "whh_1a6d3f8b2e9c",
      webhook_id: "whk_3a7f1c9e5b2d",
      event: "logout",
      url: "https://hooks.acme-shop.example/auth/logout",
      status: "FAILED",
      response_code: 503,
      duration_ms: 5000,
      attempt: 1,
      error: "Target answered 503 Service Unavailable",
      created_at: "2026-03-02T14:05:12.300Z",
    },
  ],
  meta: {
    total_count: 2,
    page_count: 1,
    current_count: 2,
    current_page: 1,
  },
} as const satisfies DeepReadonly<Schemas["WebhookHistoryResponse"]>);

/** A page number under 1 (findWebhookHistory 400). */
export const FindWebhookHistoryValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. query page: must be >= 1 (Page number, from 1).",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d/history",
  code: "validation_failed",
  errors: [
    {
      in: "query",
      name: "page",
      message: "must be >= 1 (Page number, from 1)",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (findWebhookHistory 401). */
export const FindWebhookHistoryUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d/history",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unknown webhook id (findWebhookHistory 404). */
export const FindWebhookHistoryNotFoundProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_found",
  title: "Not found",
  status: 404,
  detail: "Webhook whk_0000000000 was not found.",
  instance: "/v1/webhooks/whk_0000000000/history",
  code: "not_found",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** The application's webhooks, newest first (findWebhooks 200). */
export const WebhookFind = deepFreeze({
  type: "api.application.webhook.find",
  result: [
    {
      id: "whk_8d1f6b3a9c4e",
      event: "login",
      url: "https://hooks.acme-shop.example/auth/login",
      is_active: false,
      organization_id: "org_4b7d2e91c0a3",
      application_id: "app_8c1f5e20d9b4",
      created_at: "2026-02-12T16:30:00.000Z",
    },
    {
      id: "whk_3a7f1c9e5b2d",
      event: "logout",
      url: "https://hooks.acme-shop.example/auth/logout",
      is_active: true,
      organization_id: "org_4b7d2e91c0a3",
      application_id: "app_8c1f5e20d9b4",
      created_at: "2026-02-10T10:00:00.000Z",
    },
  ],
  meta: {
    total_count: 2,
    page_count: 1,
    current_count: 2,
    current_page: 1,
  },
} as const satisfies DeepReadonly<Schemas["WebhookFindResponse"]>);

/** A page size under 10 (findWebhooks 400). */
export const FindWebhooksValidationFailedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/validation_failed",
  title: "Validation failed",
  status: 400,
  detail: "One value of the request is invalid. query limit: must be >= 10 (Page size, 10 to 100).",
  instance: "/v1/webhooks",
  code: "validation_failed",
  errors: [
    {
      in: "query",
      name: "limit",
      message: "must be >= 10 (Page size, 10 to 100)",
    },
  ],
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not a bearer API key (findWebhooks 401). */
export const FindWebhooksUnauthorizedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Authorization header with scheme 'Bearer' required",
  instance: "/v1/webhooks",
  code: "unauthorized",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (readWidget 429). */
export const ReadWidgetRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/widgets/wgt_5a3c8e1f7b92",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (readWidget 500). */
export const ReadWidgetInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/widgets/wgt_5a3c8e1f7b92",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (readWidget 501). */
export const ReadWidgetNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/widgets/wgt_5a3c8e1f7b92",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (readWidget 503). */
export const ReadWidgetServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/widgets/wgt_5a3c8e1f7b92",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (findUserActivity 429). */
export const FindUserActivityRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/users/usr_7d2e9a4c1b6f/activity",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (findUserActivity 500). */
export const FindUserActivityInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/users/usr_7d2e9a4c1b6f/activity",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (findUserActivity 501). */
export const FindUserActivityNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/users/usr_7d2e9a4c1b6f/activity",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (findUserActivity 503). */
export const FindUserActivityServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/users/usr_7d2e9a4c1b6f/activity",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (findEncryptionReports 500). */
export const FindEncryptionReportsInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/reports/encryption",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Body over 100 kB (updateSmsProvider 413). */
export const UpdateSmsProviderPayloadTooLargeProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/payload_too_large",
  title: "Payload too large",
  status: 413,
  detail: "The JSON body is over the 100 kB limit.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "payload_too_large",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Body not JSON (updateSmsProvider 415). */
export const UpdateSmsProviderUnsupportedMediaTypeProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unsupported_media_type",
  title: "Unsupported media type",
  status: 415,
  detail: "The body must be application/json.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "unsupported_media_type",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (updateSmsProvider 429). */
export const UpdateSmsProviderRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (updateSmsProvider 500). */
export const UpdateSmsProviderInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (updateSmsProvider 501). */
export const UpdateSmsProviderNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (updateSmsProvider 503). */
export const UpdateSmsProviderServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/sms/providers/sms_9e4a1d7c3b2f",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Body over 100 kB (saveEmailTransport 413). */
export const SaveEmailTransportPayloadTooLargeProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/payload_too_large",
  title: "Payload too large",
  status: 413,
  detail: "The JSON body is over the 100 kB limit.",
  instance: "/v1/custom/emails",
  code: "payload_too_large",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (saveEmailTransport 429). */
export const SaveEmailTransportRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/custom/emails",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (saveEmailTransport 500). */
export const SaveEmailTransportInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/custom/emails",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (saveEmailTransport 501). */
export const SaveEmailTransportNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/custom/emails",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (saveEmailTransport 503). */
export const SaveEmailTransportServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/custom/emails",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Body not JSON (createNotification 415). */
export const CreateNotificationUnsupportedMediaTypeProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/unsupported_media_type",
  title: "Unsupported media type",
  status: 415,
  detail: "The body must be application/json.",
  instance: "/v1/notifications",
  code: "unsupported_media_type",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (createNotification 429). */
export const CreateNotificationRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/notifications",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (createNotification 500). */
export const CreateNotificationInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/notifications",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (createNotification 501). */
export const CreateNotificationNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/notifications",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (createNotification 503). */
export const CreateNotificationServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/notifications",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (readWebhook 429). */
export const ReadWebhookRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (readWebhook 500). */
export const ReadWebhookInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (readWebhook 501). */
export const ReadWebhookNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (readWebhook 503). */
export const ReadWebhookServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (findWebhookHistory 429). */
export const FindWebhookHistoryRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d/history",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Unexpected failure (findWebhookHistory 500). */
export const FindWebhookHistoryInternalErrorProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/internal_error",
  title: "Internal server error",
  status: 500,
  detail: "The server could not complete the request; quote the X-Request-Id when reporting it.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d/history",
  code: "internal_error",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (findWebhookHistory 501). */
export const FindWebhookHistoryNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d/history",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (findWebhookHistory 503). */
export const FindWebhookHistoryServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/webhooks/whk_3a7f1c9e5b2d/history",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Too many requests (findWebhooks 429). */
export const FindWebhooksRateLimitedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/rate_limited",
  title: "Too many requests",
  status: 429,
  detail: "The rate limit of this API key is used up; retry after the Retry-After delay.",
  instance: "/v1/webhooks",
  code: "rate_limited",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Not implemented (findWebhooks 501). */
export const FindWebhooksNotImplementedProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/not_implemented",
  title: "Not implemented",
  status: 501,
  detail: "GET /reports/encryption is documented but not implemented by this service yet.",
  instance: "/v1/webhooks",
  code: "not_implemented",
} as const satisfies DeepReadonly<Schemas["NotImplementedProblem"]>);

/** Service unavailable (findWebhooks 503). */
export const FindWebhooksServiceUnavailableProblem = deepFreeze({
  type: "https://api.authsvc.example/problems/service_unavailable",
  title: "Service unavailable",
  status: 503,
  detail: "The database cannot be reached just now; retry after the Retry-After delay.",
  instance: "/v1/webhooks",
  code: "service_unavailable",
} as const satisfies DeepReadonly<Schemas["Problem"]>);

/** Every named example of the document, by name. */
export const examples = deepFreeze({
  WidgetRead,
  ReadWidgetValidationFailedProblem,
  ReadWidgetUnauthorizedProblem,
  ReadWidgetNotFoundProblem,
  RateLimitedProblem,
  InternalErrorProblem,
  NotImplementedProblem,
  ServiceUnavailableProblem,
  UserActivityFind,
  FindUserActivityValidationFailedProblem,
  FindUserActivityUnauthorizedProblem,
  FindUserActivityNotFoundProblem,
  EncryptionReportsFind,
  FindEncryptionReportsValidationFailedProblem,
  FindEncryptionReportsInvertedDatesProblem,
  FindEncryptionReportsUnauthorizedProblem,
  SmsProviderUpdateRequest,
  SmsProviderUpdateEmpty,
  SmsProviderUpdate,
  UpdateSmsProviderValidationFailedProblem,
  UpdateSmsProviderMalformedJsonProblem,
  UpdateSmsProviderUnauthorizedProblem,
  UpdateSmsProviderNotFoundProblem,
  ConflictProblem,
  PayloadTooLargeProblem,
  UnsupportedMediaTypeProblem,
  EmailSaveSes,
  EmailSaveSendgrid,
  EmailSave,
  SaveEmailTransportValidationFailedProblem,
  SaveEmailTransportMalformedJsonProblem,
  SaveEmailTransportAuthRequiredProblem,
  SaveEmailTransportUnauthorizedProblem,
  NotificationCreateSimple,
  NotificationCreateSurvey,
  NotificationCreateRadio,
  NotificationCreateCheckbox,
  NotificationCreate,
  CreateNotificationValidationFailedProblem,
  CreateNotificationMalformedJsonProblem,
  CreateNotificationUnknownReceiverProblem,
  CreateNotificationUnauthorizedProblem,
  WebhookRead,
  ReadWebhookValidationFailedProblem,
  ReadWebhookUnauthorizedProblem,
  ReadWebhookNotFoundProblem,
  WebhookHistory,
  FindWebhookHistoryValidationFailedProblem,
  FindWebhookHistoryUnauthorizedProblem,
  FindWebhookHistoryNotFoundProblem,
  WebhookFind,
  FindWebhooksValidationFailedProblem,
  FindWebhooksUnauthorizedProblem,
  ReadWidgetRateLimitedProblem,
  ReadWidgetInternalErrorProblem,
  ReadWidgetNotImplementedProblem,
  ReadWidgetServiceUnavailableProblem,
  FindUserActivityRateLimitedProblem,
  FindUserActivityInternalErrorProblem,
  FindUserActivityNotImplementedProblem,
  FindUserActivityServiceUnavailableProblem,
  FindEncryptionReportsInternalErrorProblem,
  UpdateSmsProviderPayloadTooLargeProblem,
  UpdateSmsProviderUnsupportedMediaTypeProblem,
  UpdateSmsProviderRateLimitedProblem,
  UpdateSmsProviderInternalErrorProblem,
  UpdateSmsProviderNotImplementedProblem,
  UpdateSmsProviderServiceUnavailableProblem,
  SaveEmailTransportPayloadTooLargeProblem,
  SaveEmailTransportRateLimitedProblem,
  SaveEmailTransportInternalErrorProblem,
  SaveEmailTransportNotImplementedProblem,
  SaveEmailTransportServiceUnavailableProblem,
  CreateNotificationUnsupportedMediaTypeProblem,
  CreateNotificationRateLimitedProblem,
  CreateNotificationInternalErrorProblem,
  CreateNotificationNotImplementedProblem,
  CreateNotificationServiceUnavailableProblem,
  ReadWebhookRateLimitedProblem,
  ReadWebhookInternalErrorProblem,
  ReadWebhookNotImplementedProblem,
  ReadWebhookServiceUnavailableProblem,
  FindWebhookHistoryRateLimitedProblem,
  FindWebhookHistoryInternalErrorProblem,
  FindWebhookHistoryNotImplementedProblem,
  FindWebhookHistoryServiceUnavailableProblem,
  FindWebhooksRateLimitedProblem,
  FindWebhooksNotImplementedProblem,
  FindWebhooksServiceUnavailableProblem,
});

/** The name of a documented example. */
export type ExampleName = keyof typeof examples;

/**
 * Each operation's documented answers by status: content type, the documented example of
 * each response header, and the names of its examples (the first is the default, as on the mock).
 */
export const responseExamples = deepFreeze({
  readWidget: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["WidgetRead"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["ReadWidgetValidationFailedProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["ReadWidgetUnauthorizedProblem"],
    },
    404: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["ReadWidgetNotFoundProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["ReadWidgetRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["ReadWidgetInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["ReadWidgetNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["ReadWidgetServiceUnavailableProblem"],
    },
  },
  findUserActivity: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["UserActivityFind"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["FindUserActivityValidationFailedProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["FindUserActivityUnauthorizedProblem"],
    },
    404: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["FindUserActivityNotFoundProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["FindUserActivityRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["FindUserActivityInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["FindUserActivityNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["FindUserActivityServiceUnavailableProblem"],
    },
  },
  findEncryptionReports: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["EncryptionReportsFind"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["FindEncryptionReportsValidationFailedProblem", "FindEncryptionReportsInvertedDatesProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["FindEncryptionReportsUnauthorizedProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["RateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["FindEncryptionReportsInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["NotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["ServiceUnavailableProblem"],
    },
  },
  updateSmsProvider: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["SmsProviderUpdate"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["UpdateSmsProviderValidationFailedProblem", "UpdateSmsProviderMalformedJsonProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["UpdateSmsProviderUnauthorizedProblem"],
    },
    404: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["UpdateSmsProviderNotFoundProblem"],
    },
    409: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["ConflictProblem"],
    },
    413: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["UpdateSmsProviderPayloadTooLargeProblem"],
    },
    415: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["UpdateSmsProviderUnsupportedMediaTypeProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["UpdateSmsProviderRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["UpdateSmsProviderInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["UpdateSmsProviderNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["UpdateSmsProviderServiceUnavailableProblem"],
    },
  },
  saveEmailTransport: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["EmailSave"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["SaveEmailTransportValidationFailedProblem", "SaveEmailTransportMalformedJsonProblem", "SaveEmailTransportAuthRequiredProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["SaveEmailTransportUnauthorizedProblem"],
    },
    413: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["SaveEmailTransportPayloadTooLargeProblem"],
    },
    415: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["UnsupportedMediaTypeProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["SaveEmailTransportRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["SaveEmailTransportInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["SaveEmailTransportNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["SaveEmailTransportServiceUnavailableProblem"],
    },
  },
  createNotification: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["NotificationCreate"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["CreateNotificationValidationFailedProblem", "CreateNotificationMalformedJsonProblem", "CreateNotificationUnknownReceiverProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["CreateNotificationUnauthorizedProblem"],
    },
    413: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["PayloadTooLargeProblem"],
    },
    415: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["CreateNotificationUnsupportedMediaTypeProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["CreateNotificationRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["CreateNotificationInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["CreateNotificationNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["CreateNotificationServiceUnavailableProblem"],
    },
  },
  readWebhook: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["WebhookRead"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["ReadWebhookValidationFailedProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["ReadWebhookUnauthorizedProblem"],
    },
    404: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["ReadWebhookNotFoundProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["ReadWebhookRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["ReadWebhookInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["ReadWebhookNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["ReadWebhookServiceUnavailableProblem"],
    },
  },
  findWebhookHistory: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["WebhookHistory"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["FindWebhookHistoryValidationFailedProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["FindWebhookHistoryUnauthorizedProblem"],
    },
    404: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["FindWebhookHistoryNotFoundProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["FindWebhookHistoryRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["FindWebhookHistoryInternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["FindWebhookHistoryNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["FindWebhookHistoryServiceUnavailableProblem"],
    },
  },
  findWebhooks: {
    200: {
      contentType: "application/json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["WebhookFind"],
    },
    400: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
      },
      examples: ["FindWebhooksValidationFailedProblem"],
    },
    401: {
      contentType: "application/problem+json",
      headers: {
        RateLimit: '"default";r=599;t=60',
        "RateLimit-Policy": '"default";q=600;w=60',
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "WWW-Authenticate": "Bearer",
      },
      examples: ["FindWebhooksUnauthorizedProblem"],
    },
    429: {
      contentType: "application/problem+json",
      headers: {
        "Access-Control-Allow-Origin": "https://app.acme-shop.example",
        "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c",
        "Retry-After": "42",
        RateLimit: '"default";r=0;t=42',
        "RateLimit-Policy": '"default";q=600;w=60',
      },
      examples: ["FindWebhooksRateLimitedProblem"],
    },
    500: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["InternalErrorProblem"],
    },
    501: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c" },
      examples: ["FindWebhooksNotImplementedProblem"],
    },
    503: {
      contentType: "application/problem+json",
      headers: { "Access-Control-Allow-Origin": "https://app.acme-shop.example", "X-Request-Id": "0f8e2c6a-3b1d-4e5f-9a7c-2d4b6e8f1a3c", "Retry-After": "42" },
      examples: ["FindWebhooksServiceUnavailableProblem"],
    },
  },
} as const satisfies Record<string, Record<number, { contentType: string | null; headers: Record<string, string>; examples: readonly ExampleName[] }>>);

/**
 * Each operation's path parameters with their documented examples (the ids its examples
 * show), and the documented defaults of its query parameters (what a request that leaves one out gets).
 */
export const parameterExamples = deepFreeze({
  readWidget: { path: { id: "wgt_5a3c8e1f7b92" }, queryDefaults: {} },
  findUserActivity: { path: { id: "usr_7d2e9a4c1b6f" }, queryDefaults: { limit: 10, page: 1 } },
  findEncryptionReports: { path: {}, queryDefaults: { limit: 10, page: 1 } },
  updateSmsProvider: { path: { id: "sms_9e4a1d7c3b2f" }, queryDefaults: {} },
  saveEmailTransport: { path: {}, queryDefaults: {} },
  createNotification: { path: {}, queryDefaults: {} },
  readWebhook: { path: { id: "whk_3a7f1c9e5b2d" }, queryDefaults: {} },
  findWebhookHistory: { path: { id: "whk_3a7f1c9e5b2d" }, queryDefaults: { limit: 10, page: 1 } },
  findWebhooks: { path: {}, queryDefaults: { limit: 10, page: 1 } },
} as const satisfies Record<string, { path: Record<string, string>; queryDefaults: Record<string, unknown> }>);
