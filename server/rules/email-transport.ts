// POST /custom/emails: one transport per application, created on the first save and
// replaced on later ones (same id and created_at, counters kept). The provider access
// information is sealed by the caller-supplied `seal`, so this module never keeps a secret.
import equal from "fast-deep-equal";
import type { Caller, EmailSettingsSave, EmailTransport, SendgridAuth, SesAuth } from "../domain/index.js";
import { invalid } from "../problems.js";

type Auth = SendgridAuth | SesAuth;

/** What saving needs besides the request: identity of the new record and the sealing. */
export interface SaveContext extends Caller {
  now: Date;
  newId: () => string;
  seal: (auth: Auth) => string;
  open: (token: string) => unknown;
}

/** The part after the last `@` of an address. */
function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** The SES region of an auth object, or "" for providers without regions. */
function regionOf(auth: Auth): string {
  return "region" in auth ? auth.region : "";
}

/** The auth of a stored transport: the sealed token, and the region read before sealing. */
export interface StoredAuth {
  token: string;
  region: string;
}

/** Seals plain auth for storing. */
export function storedAuth(auth: Auth, seal: (auth: Auth) => string): StoredAuth {
  return { token: seal(auth), region: regionOf(auth) };
}

/** The fields of a transport kept as given; the others are derived by transportRecord. */
export type TransportFields = Omit<EmailTransport, "auth" | "domain" | "region" | "organization_id" | "application_id">;

/**
 * The stored transport record (seed load and save both build it here): the given fields,
 * the sealed auth, `domain` from `email_from`, `region` from the auth, the owner's ids.
 */
export function transportRecord(fields: TransportFields, auth: StoredAuth, owner: Caller): EmailTransport {
  return {
    id: fields.id,
    type: fields.type,
    is_verified: fields.is_verified,
    auth: auth.token,
    email_from: fields.email_from,
    email_reply: fields.email_reply,
    email_admin: fields.email_admin,
    from_name: fields.from_name,
    domain: domainOf(fields.email_from),
    send_count: fields.send_count,
    fail_count: fields.fail_count,
    organization_id: owner.organizationId,
    application_id: owner.applicationId,
    created_at: fields.created_at,
    region: auth.region,
  };
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

  // Unchanged auth (left out, or the same values) keeps the stored token and region.
  const authChanged = request.auth !== undefined && (typeChanged || !equal(ctx.open(current!.auth), request.auth));
  const auth = authChanged ? storedAuth(request.auth!, ctx.seal) : { token: current!.auth, region: current!.region };

  return transportRecord(
    {
      id: current?.id ?? ctx.newId(),
      type: request.type,
      is_verified: current !== undefined && !typeChanged && !authChanged ? current.is_verified : false,
      email_from: request.email_from,
      email_reply: request.email_reply ?? "",
      email_admin: request.email_admin,
      from_name: request.from_name ?? "",
      send_count: current?.send_count ?? 0,
      fail_count: current?.fail_count ?? 0,
      created_at: current?.created_at ?? ctx.now.toISOString(),
    },
    auth,
    ctx,
  );
}
