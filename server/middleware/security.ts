// The credential check of the document's two schemes. A request must present exactly
// the scheme its operation declares: the other scheme's headers, even beside the right ones,
// are refused with 401, so a credential is never silently ignored. The store compares keys
// and secrets (kept only as hashes) in constant time; this module only reads headers.
import type { Request, RequestHandler } from "express";
import { ApiProblem } from "../problems.js";
import type { Caller } from "../domain/index.js";

/** What the HTTP layer needs from the store to authenticate. */
export interface Authenticator {
  authenticateBearer(apiKey: string): Promise<Caller | undefined>;
  authenticateKeyPair(apiKey: string, apiSecret: string): Promise<Caller | undefined>;
}

/** A failed check: 401, with `WWW-Authenticate: Bearer` where the operation takes a bearer token. */
const unauthenticated = (detail: string, bearer: boolean) => new ApiProblem("unauthorized", detail, undefined, bearer ? { "WWW-Authenticate": "Bearer" } : undefined);

/**
 * The authenticator itself failed (its database is down): not a verdict on the credentials,
 * so not a 401. Its message says nothing of the cause; the mapper answers a generic 500 and
 * logs the cause.
 */
class AuthenticatorFailed extends Error {}

async function lookup(find: () => Promise<Caller | undefined>): Promise<Caller | undefined> {
  try {
    return await find();
  } catch (cause) {
    // A problem the store chose (503 while its database is out of reach) is answered as is.
    if (cause instanceof ApiProblem) throw cause;
    throw new AuthenticatorFailed("The credentials could not be checked.", { cause });
  }
}

const callers = new WeakMap<Request, Caller>();

/** The application a request authenticated as (set by the credential check). */
export function callerOf(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw new Error("No authenticated caller on this request: is the operation missing its security?");
  return caller;
}

/** A request header's value, or undefined when absent or empty. */
export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The token of `Authorization: Bearer <token>` (scheme in any case, one or more spaces, RFC
 * 6750), or undefined. The one parser: authentication and the rate limiter's key agree.
 */
export function bearerToken(req: Request): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header(req, "authorization") ?? "")?.[1];
}

async function bearerCaller(req: Request, auth: Authenticator): Promise<Caller> {
  if (header(req, "x-api-key") || header(req, "x-api-secret")) {
    throw unauthenticated("This operation takes `Authorization: Bearer <API key>`, not X-Api-Key/X-Api-Secret.", true);
  }
  const token = bearerToken(req);
  if (!token) throw unauthenticated("Expected `Authorization: Bearer <API key>`.", true);
  const caller = await lookup(() => auth.authenticateBearer(token));
  if (!caller) throw unauthenticated("The API key is not valid.", true);
  return caller;
}

async function keyPairCaller(req: Request, auth: Authenticator): Promise<Caller> {
  if (header(req, "authorization")) {
    throw unauthenticated("This operation takes X-Api-Key and X-Api-Secret, not an Authorization header.", false);
  }
  const apiKey = header(req, "x-api-key");
  const apiSecret = header(req, "x-api-secret");
  if (!apiKey || !apiSecret) throw unauthenticated("Expected both X-Api-Key and X-Api-Secret.", false);
  const caller = await lookup(() => auth.authenticateKeyPair(apiKey, apiSecret));
  if (!caller) throw unauthenticated("The API key and secret are not valid.", false);
  return caller;
}

/** The credential schemes this layer checks, by the document's security scheme names. */
const schemes = {
  bearer: ["bearerAuth"],
  keyPair: ["apiKey", "apiSecret"],
} as const;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name) => b.includes(name));

/**
 * The middleware checking one operation's own credential scheme (`security`: the scheme
 * names of its one requirement), run before the body is read: a request without valid
 * credentials costs no parsing. A requirement other than the document's two schemes is
 * refused when the app is built, not at the first request.
 */
export function credentialCheck(security: readonly string[], auth: Authenticator, operationId: string): RequestHandler {
  let check: (req: Request) => Promise<Caller>;
  if (sameSet(security, schemes.bearer)) check = (req) => bearerCaller(req, auth);
  else if (sameSet(security, schemes.keyPair)) check = (req) => keyPairCaller(req, auth);
  else throw new Error(`${operationId} requires [${security.join(", ")}]; this layer checks bearerAuth or apiKey + apiSecret`);
  return async (req, _res, next) => {
    callers.set(req, await check(req));
    next();
  };
}
