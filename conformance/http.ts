// How a check talks to a target: through the generated client for the requests the client
// can express, through plain fetch for the ones it cannot (no credentials, unknown fields,
// malformed ids), and either way it gets back the raw status, content type and body.
import { createApiClient, type ApiClient, type paths } from "../client/index.js";
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
}

export async function observe(response: Response): Promise<Observed> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", headers: response.headers, body, text };
}

/** The generated client with both credentials, as the checks use it. */
export type Api = ApiClient<paths>;

// Without --api-secret the client has no key pair; the checks that send one are skipped
// (Check.needs), so the narrower client is never asked for POST /notifications.
function clientFor(target: Target, headers: Record<string, string>, fetch: (request: Request) => Promise<Response>): Api {
  // No retries: a check judges each answer as the target gave it.
  const options = { baseUrl: target.baseUrl, apiKey: target.apiKey, headers, fetch, retry: false as const };
  if (target.apiSecret === undefined) return createApiClient(options) as unknown as Api;
  return createApiClient({ ...options, apiSecret: target.apiSecret });
}

/** Calls the target through the generated client and observes the raw response. */
export async function viaClient(target: Target, call: (api: Api) => Promise<unknown>, headers: Record<string, string> = {}): Promise<Observed> {
  let last: Response | undefined;
  const api = clientFor(target, headers, async (request) => {
    const response = await fetch(request);
    last = response.clone();
    return response;
  });
  try {
    await call(api);
  } catch (error) {
    // A body the client cannot parse is judged below from the raw response.
    if (!last) throw error;
  }
  if (!last) throw new Error("the client sent no request");
  return observe(last);
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
  const response = await fetch(`${target.baseUrl}${request.path}${query}`, {
    method: request.method.toUpperCase(),
    headers: { ...headers, ...request.headers },
    ...(payload !== undefined ? { body: payload } : {}),
  });
  return observe(response);
}
