// How a check talks to a target: through the generated client for the requests the client
// can express, through plain fetch for the ones it cannot (no credentials, unknown fields,
// malformed ids), and either way it gets back the raw status, content type and body, read
// within the run's bounds (bounded-fetch.ts): a late, endless or oversized answer, or a
// redirect, cannot hang the run, fill its memory or carry a credential elsewhere.
import { createApiClient, type ApiClient, type paths } from "../client/index.js";
import { boundedFetch, defaultLimits, type Bounded, type Limits } from "./bounded-fetch.js";
import { credentialHeaders } from "./requests.js";
import type { Target } from "./target.js";

/** A response as the checks judge it. */
export interface Observed {
  status: number;
  contentType: string;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  text: string;
  /** `GET http://…/v1/widgets/wgt_…`: what was asked, for the report. */
  request: string;
}

function observe(request: Request, { response, bytes }: Bounded): Observed {
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    headers: response.headers,
    body,
    text,
    request: `${request.method} ${request.url}`,
  };
}

/** Why a check or step is skipped under `--skip-not-implemented`. */
export const notImplementedReason = "not implemented by the target: answered 501 not_implemented (--skip-not-implemented)";

/** Why a documented 501 fails a run that does not skip them, and how to skip them. */
export const notImplementedHint =
  "the documented 501 not_implemented: the target does not implement this operation yet (--skip-not-implemented skips such checks and steps until it does)";

/** Thrown for an answer that is the documented 501 `not_implemented`, when the target's run skips those. */
export class NotImplementedByTarget extends Error {}

/** The `type` of the 500 a service answers when its own answer breaks the contract (the document's InternalError response). */
export const invalidResponseType = "https://api.authsvc.example/problems/invalid_response";

/** For that 500, `invalid_response: <its detail>` (where the answer breaks and which rule); undefined for any other answer. */
export function invalidResponseCause(status: number | undefined, body: unknown): string | undefined {
  if (status !== 500 || typeof body !== "object" || body === null) return undefined;
  const { type, detail } = body as { type?: unknown; detail?: unknown };
  if (type !== invalidResponseType) return undefined;
  const text = typeof detail === "string" ? detail : "";
  return `invalid_response: ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`;
}

/** Whether an answer is the documented 501 of an operation the target does not implement yet: a problem whose code says so. */
export const isNotImplemented = (status: number | undefined, contentType: string | undefined, body: unknown): boolean =>
  status === 501 &&
  /^application\/problem\+json\b/i.test(contentType ?? "") &&
  typeof body === "object" &&
  body !== null &&
  (body as { code?: unknown }).code === "not_implemented";

const credentialHeaderNames = new Set(["authorization", "x-api-key", "x-api-secret"]);
/** Whether headers given to a request replace the target's own credentials. */
const replacesCredentials = (headers: Record<string, string> = {}) => Object.keys(headers).some((name) => credentialHeaderNames.has(name.toLowerCase()));

/**
 * The observed answer, unless the run skips operations the target does not implement yet
 * and this is one. Only for a request with the target's own credentials: a 501 where the
 * check expects the credentials refused (none, another's, malformed) is a failure, not a skip.
 */
function judged(target: Target, observed: Observed, ownCredentials: boolean): Observed {
  if (target.skipNotImplemented && ownCredentials && isNotImplemented(observed.status, observed.contentType, observed.body))
    throw new NotImplementedByTarget(`${observed.request}: ${notImplementedReason}`);
  return observed;
}

/** The target's bounds, each defaulted. */
export const limitsOf = (target: Target): Limits => ({ ...defaultLimits, ...target.limits });

// Statuses whose Response cannot carry a body (the Fetch standard's null body statuses).
const nullBody = new Set([101, 103, 204, 205, 304]);

/** The generated client with both credentials, as the checks use it. */
export type Api = ApiClient<paths>;

// Without --api-secret the client has no key pair; the checks that send one are skipped
// (Check.needs), so the narrower client is never asked for POST /notifications.
function clientFor(target: Target, headers: Record<string, string>, fetch: (request: Request) => Promise<Response>): Api {
  // No retries: a check judges each answer as the target gave it. No timeout of the client's
  // own: the bounded fetch below times each request.
  const options = { baseUrl: target.baseUrl, apiKey: target.apiKey, headers, fetch, retry: false as const, timeoutMs: false as const };
  if (target.apiSecret === undefined) return createApiClient(options) as unknown as Api;
  return createApiClient({ ...options, apiSecret: target.apiSecret });
}

/** Calls the target through the generated client and observes the raw response. */
export async function viaClient(target: Target, call: (api: Api) => Promise<unknown>, headers: Record<string, string> = {}): Promise<Observed> {
  let last: Bounded | undefined;
  let sent: Request | undefined;
  let hostile: unknown;
  const api = clientFor(target, headers, async (request) => {
    sent = request;
    try {
      last = await boundedFetch(request, limitsOf(target), target.stall);
    } catch (error) {
      hostile = error;
      throw error;
    }
    // The client reads a copy of the bytes already read within the bounds.
    const { status, statusText, headers: answered } = last.response;
    return new Response(nullBody.has(status) || last.bytes.byteLength === 0 ? null : last.bytes.slice(), { status, statusText, headers: answered });
  });
  try {
    await call(api);
  } catch (error) {
    // The bound the target broke, as it is, whatever the client made of it.
    if (hostile) throw hostile;
    // A body the client cannot parse is judged below from the raw response.
    if (!last) throw error;
  }
  if (!last || !sent) throw new Error("the client sent no request");
  return judged(target, observe(sent, last), !replacesCredentials(headers));
}

/** Which credentials a plain request carries. */
export type Credentials = "none" | "bearer" | "keyPair";

export interface RawRequest {
  method: string;
  /** Path below the base URL, already filled in, e.g. `/widgets/wgt_5a3c8e1f7b92`. */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent verbatim instead of `body`, with the content type given in `headers`. */
  text?: string;
  credentials: Credentials;
  headers?: Record<string, string>;
  /** Another application's key pair instead of the target's own. */
  as?: { apiKey: string; apiSecret: string };
}

/** Sends a request with plain fetch, for inputs the typed client refuses to express. */
export async function viaFetch(target: Target, request: RawRequest): Promise<Observed> {
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  if (request.credentials !== "none") Object.assign(headers, credentialHeaders(request.credentials, request.as ?? target));
  if (request.body !== undefined && request.text === undefined) headers["content-type"] = "application/json";
  const payload = request.text ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined);
  const query = request.query ? `?${new URLSearchParams(request.query)}` : "";
  const sent = new Request(`${target.baseUrl}${request.path}${query}`, {
    method: request.method.toUpperCase(),
    headers: { ...headers, ...request.headers },
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const ownCredentials = request.credentials !== "none" && request.as === undefined && !replacesCredentials(request.headers);
  return judged(target, observe(sent, await boundedFetch(sent, limitsOf(target), target.stall)), ownCredentials);
}
