// The security handlers of the document's three schemes. A request must present exactly
// the scheme its operation declares: the other scheme's headers, even beside the right ones,
// are refused with 401, so a credential is never silently ignored. The store compares keys
// and secrets (kept only as hashes) in constant time; this module only reads headers.
import type { Request } from "express";
import type { Caller } from "../contract.js";

/** What the HTTP layer needs from the store to authenticate. */
export interface Authenticator {
  authenticateBearer(apiKey: string): Promise<Caller | undefined>;
  authenticateKeyPair(apiKey: string, apiSecret: string): Promise<Caller | undefined>;
}

/** A failed check, as express-openapi-validator expects it thrown (it reads `status` and `message`). */
class Unauthenticated extends Error {
  readonly status = 401;
}

/**
 * The authenticator itself failed (its database is down). eov would answer any error without
 * a status as 401 with the error's own message as the detail; this one is a 500 whose
 * message says nothing of the cause.
 */
class AuthenticatorFailed extends Error {
  readonly status = 500;
}

async function lookup(find: () => Promise<Caller | undefined>): Promise<Caller | undefined> {
  try {
    return await find();
  } catch (cause) {
    throw new AuthenticatorFailed("The credentials could not be checked.", { cause });
  }
}

const callers = new WeakMap<Request, Caller>();

/** The application a request authenticated as (set by the security handlers). */
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
    throw new Unauthenticated("This operation takes `Authorization: Bearer <API key>`, not X-Api-Key/X-Api-Secret.");
  }
  const token = bearerToken(req);
  if (!token) throw new Unauthenticated("Expected `Authorization: Bearer <API key>`.");
  const caller = await lookup(() => auth.authenticateBearer(token));
  if (!caller) throw new Unauthenticated("The API key is not valid.");
  return caller;
}

async function keyPairCaller(req: Request, auth: Authenticator): Promise<Caller> {
  if (header(req, "authorization")) {
    throw new Unauthenticated("This operation takes X-Api-Key and X-Api-Secret, not an Authorization header.");
  }
  const apiKey = header(req, "x-api-key");
  const apiSecret = header(req, "x-api-secret");
  if (!apiKey || !apiSecret) throw new Unauthenticated("Expected both X-Api-Key and X-Api-Secret.");
  const caller = await lookup(() => auth.authenticateKeyPair(apiKey, apiSecret));
  if (!caller) throw new Unauthenticated("The API key and secret are not valid.");
  return caller;
}

/**
 * `validateSecurity.handlers` for express-openapi-validator. `apiKey` and `apiSecret` are
 * one AND-ed requirement whose handlers run side by side: both check the pair (once per
 * request: the one pending lookup is remembered), so either can fail it and neither can pass
 * it alone. The handlers return promises, which eov awaits.
 */
export function securityHandlers(auth: Authenticator) {
  // One lookup per request and scheme: server/http/authenticate-first.ts runs the handlers
  // before the body is read, and eov runs them again; the second run reuses the first.
  const remembered = (check: (req: Request, auth: Authenticator) => Promise<Caller>) => {
    const lookups = new WeakMap<Request, Promise<Caller>>();
    return async (req: Request): Promise<true> => {
      let lookup = lookups.get(req);
      if (!lookup) {
        lookup = check(req, auth);
        lookups.set(req, lookup);
      }
      callers.set(req, await lookup);
      return true;
    };
  };
  const checkPair = remembered(keyPairCaller);
  return {
    bearerAuth: remembered(bearerCaller),
    apiKey: checkPair,
    apiSecret: checkPair,
  };
}

/** The handlers securityHandlers returns, by scheme name. */
export type SecurityHandlers = ReturnType<typeof securityHandlers>;
