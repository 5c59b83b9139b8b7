// POST /custom/emails: one transport per application, created on the first save and
// replaced on later ones (same id and created_at, counters kept). The provider access
// information is sealed by the caller-supplied `seal`, so this module never keeps a secret.
import { isDeepStrictEqual } from "node:util";
import { invalid } from "../problems.js";
import type { EmailSettingsSave, EmailTransport, SendgridAuth, SesAuth } from "../seed/types.js";

type Auth = SendgridAuth | SesAuth;

/** What saving needs besides the request: identity of the new record and the sealing. */
export interface SaveContext {
  applicationId: string;
  organizationId: string;
  now: Date;
  newId: () => string;
  seal: (auth: Auth) => string;
  open: (token: string) => unknown;
}

/** The part after the last `@` of an address. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** The SES region of an auth object, or "" for providers without regions. */
function regionOf(auth: Auth): string {
  return "region" in auth ? auth.region : "";
}

/**
 * The transport after saving `request` over `current`. `auth` left out keeps the stored
 * one when the type is unchanged, and is required otherwise (also on the first save).
 * `is_verified` turns false whenever the type or the auth changes.
 */
export function saveTransport(current: EmailTransport | undefined, request: EmailSettingsSave, ctx: SaveContext): EmailTransport {
  const typeChanged = current === undefined || current.type !== request.type;
  if (request.auth === undefined && typeChanged) {
    const why = current === undefined ? "the first save" : `a change of type from ${current.type} to ${request.type}`;
    throw invalid(`auth is required on ${why}.`, [{ in: "body", pointer: "/auth", message: `required for ${why}` }]);
  }

  let auth = current?.auth;
  let region = current?.region ?? "";
  let authChanged = false;
  if (request.auth !== undefined) {
    authChanged = typeChanged || !isDeepStrictEqual(ctx.open(current!.auth), request.auth);
    if (authChanged) auth = ctx.seal(request.auth);
    region = regionOf(request.auth);
  }

  return {
    id: current?.id ?? ctx.newId(),
    type: request.type,
    is_verified: current !== undefined && !typeChanged && !authChanged ? current.is_verified : false,
    auth: auth!,
    email_from: request.email_from,
    email_reply: request.email_reply ?? "",
    email_admin: request.email_admin,
    from_name: request.from_name ?? "",
    domain: domainOf(request.email_from),
    send_count: current?.send_count ?? 0,
    fail_count: current?.fail_count ?? 0,
    organization_id: ctx.organizationId,
    application_id: ctx.applicationId,
    created_at: current?.created_at ?? ctx.now.toISOString(),
    region,
  };
}
