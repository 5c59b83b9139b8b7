// The security matrix: for every operation, one valid request (A's ids, a valid body) sent
// with each kind of credentials, and the status each must get. Cross-application rows send
// application B's credentials at A's records. The secrets sent here are what the scan looks for.
import { operations, type OperationId } from "../../generated/operations.js";
import { appA, appB, idsOf, type DemoApplication } from "../support/demo.js";
import { namedExample } from "../support/document.js";
import { credentialHeaders, hasId, operationIds, schemeOf, validRequest, type ValidRequest } from "../support/requests.js";

export const apps = { A: appA, B: appB } as const;
export const unknownKey = "ak_live_unknown_7e3c9a1f5d2b8e4a";
export const unknownSecret = "as_live_unknown_1b8d4f7a2e9c6d3f";
/** E-mail auth secrets submitted by the matrix (they must come back only as the opaque token). */
export const emailSecrets = { sendgrid: "SG.matrix-sendgrid-9f2c7e1a4b8d", ses: "matrix/ses+Secret/4d9a1e7c2b8f6e3a" };

/** Every secret the test run submits: none may appear in a response or a log line. */
export const submittedSecrets = [apps.A.apiKey, apps.A.apiSecret, apps.B.apiKey, apps.B.apiSecret, unknownKey, unknownSecret, emailSecrets.sendgrid, emailSecrets.ses];

export type Call = ValidRequest;

/**
 * A valid request of each operation, on application A's records (test/support/requests.ts);
 * the e-mail transport save carries the matrix's own SendGrid key, so the scan can look for it.
 */
export const requests = Object.fromEntries(
  operationIds.map((id) => {
    const request = validRequest(id);
    if (id === "saveEmailTransport") {
      const sendgrid = namedExample("EmailSaveSendgrid") as { auth: { api_key: string } };
      request.body = { ...sendgrid, auth: { ...sendgrid.auth, api_key: emailSecrets.sendgrid } };
    }
    return [id, request];
  }),
) as Record<OperationId, Call>;

type Headers = Record<string, string>;
interface Kind {
  name: string;
  headers: (id: OperationId, app: DemoApplication) => Headers;
  /** Only operations of this scheme have the row (the others have no such case). */
  only?: "bearer" | "keyPair";
}

const bearer = (key: string): Headers => ({ authorization: `Bearer ${key}` });
const pair = (key: string, secret: string): Headers => ({ "x-api-key": key, "x-api-secret": secret });
const usesBearer = (id: OperationId) => schemeOf(id) === "bearer";

const kinds = [
  { name: "no credentials", headers: () => ({}) },
  { name: "wrong scheme", headers: (id, app) => (usesBearer(id) ? pair(app.apiKey, app.apiSecret) : bearer(app.apiKey)) },
  { name: "unknown key", headers: (id, app) => (usesBearer(id) ? bearer(unknownKey) : pair(unknownKey, app.apiSecret)) },
  // A bearer operation takes no secret: "key without secret" and "wrong secret" are key-pair
  // cases; what a bearer operation gets instead is the pair sent as HTTP Basic.
  { name: "Basic credentials", headers: (_, app) => ({ authorization: `Basic ${Buffer.from(`${app.apiKey}:${app.apiSecret}`).toString("base64")}` }), only: "bearer" },
  { name: "key without secret", headers: (_, app) => ({ "x-api-key": app.apiKey }), only: "keyPair" },
  { name: "wrong secret", headers: (_, app) => pair(app.apiKey, unknownSecret), only: "keyPair" },
  { name: "right key", headers: (id, app) => credentialHeaders(schemeOf(id), app) },
] as const satisfies readonly Kind[];

export const credentialKinds = kinds.map((k) => k.name);
export type CredentialKind = (typeof kinds)[number]["name"];

/** Whether the operation has a row of this kind. */
export function applies(id: OperationId, kind: CredentialKind): boolean {
  const found: Kind = kinds.find((k) => k.name === kind)!;
  return !found.only || found.only === schemeOf(id);
}

/** The headers of one kind of credentials for an operation (app A unless told). */
export function credentials(id: OperationId, kind: CredentialKind, app: keyof typeof apps = "A"): Headers {
  if (!applies(id, kind)) throw new Error(`${id} has no "${kind}" case`);
  return kinds.find((k) => k.name === kind)!.headers(id, apps[app]);
}

/** What each kind of credentials must get: 401 for all but the right ones. */
export const expectedStatus = (kind: CredentialKind) => (kind === "right key" ? 200 : 401);

/** Operations on an id of A's: B's key must get 404 (never revealing that the id exists). */
export const crossApplication: OperationId[] = (Object.keys(operations) as OperationId[]).filter(hasId);

/** A's record ids (read from the demo seed) that must never appear in an answer to B. */
export const idsOfA = idsOf(appA);
