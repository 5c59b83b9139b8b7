// The typed client: openapi-fetch's createClient over the generated paths, plus one
// middleware that puts each operation's own credentials on the request. Which scheme an
// operation takes is read from the generated operations table, never repeated here.
import createClient, { type Middleware } from "openapi-fetch";
import { operations, type OperationId } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import type { ApiClient } from "./api-client.js";
import { newRequestId, requestIdOf, withRequestId } from "./request-id.js";
import { retryMiddleware, type RetryOptions } from "./retry.js";
import { CallDeadlines, timeoutMiddleware } from "./timeout.js";
import { type Fetch, safeFetch } from "./transport.js";

export type { components, operations as operationTypes, paths } from "../generated/schema.js";
export { operations, type OperationId } from "../generated/operations.js";
export type { ApiClient, ApiClientMethod, ApiResult, WithRequestId } from "./api-client.js";
export type { Problem } from "./problem.js";
export { newRequestId } from "./request-id.js";
export { RedirectError, ResponseTooLargeError } from "./errors.js";
export { anySignal, timeoutSignal } from "./signals.js";
export { nextPage, paginate, PageError, type ListPath, type ListRecord, type PaginateParams, type PagingClient } from "./paginate.js";
export { retryAfterMs, retryMiddleware, type RetryOptions } from "./retry.js";
export { CallDeadlines, timeoutMiddleware } from "./timeout.js";

type Operations = typeof operations;

/** Paths of the operations that take `X-Api-Key` + `X-Api-Secret` instead of a bearer key. */
export type SecretPaths = {
  [K in OperationId]: Operations[K]["security"] extends readonly ["apiKey", ...unknown[]] ? Operations[K]["path"] : never;
}[OperationId];

/** The paths a client can call without an API secret. */
export type BearerPaths = Omit<paths, SecretPaths>;

export interface ApiClientOptions {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** The application's API key: sent as a bearer token, or as `X-Api-Key` on POST /notifications. */
  apiKey: string;
  /** The application's API secret: sent as `X-Api-Secret`, only on POST /notifications. */
  apiSecret?: string;
  /** A fetch to use instead of the global one, which is otherwise looked up on every request. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Extra headers for every request; credentials go in apiKey/apiSecret. Each call sends a
   * fresh `X-Request-Id` unless one is given here or in the call's own `headers`.
   */
  headers?: Record<string, string>;
  /**
   * Retries (default: 2 tries in all): a 429 on every operation, a 503 or a network error on
   * GETs and on PUT /sms/providers/{id} without `sort`; `retryPosts: true` adds POSTs. `false` turns them off.
   */
  retry?: RetryOptions | false;
  /**
   * Aborts a call (retries and reading the body included) still running after this many ms (default 30 000);
   * `false` for none. A retry whose wait (`Retry-After`) would end after it is not made: the
   * call answers the 429 or 503 instead.
   */
  timeoutMs?: number | false;
  /**
   * The most bytes an answer's body may have (default `defaultMaxResponseBytes`, 4 MiB, twice
   * the document's largest answer); `false` for no limit. A larger body ends the call with a
   * `ResponseTooLargeError` as soon as the limit is passed, so no more than it is buffered.
   */
  maxResponseBytes?: number | false;
}

/** The timeout of a call when `timeoutMs` is not given. */
export const defaultTimeoutMs = 30_000;

/**
 * The body limit when `maxResponseBytes` is not given: 4 MiB. The document bounds every
 * answer (each string has a maxLength, each array a maxItems, each object is closed); its
 * largest is a full page of GET /reports/encryption, 100 reports at most 2,107,072 bytes
 * when every character of every string is written as a 6-byte `\u` escape (JSON.stringify's
 * worst). 4 MiB is the next power of two above it; test/client/body-limit.test.ts derives
 * the bound from generated/openapi.json and fails when it leaves [limit / 2, limit].
 */
export const defaultMaxResponseBytes = 4 * 1024 * 1024;

/** Headers only the middleware may set: each operation must carry its own scheme and no other. */
const credentialHeaders = ["authorization", "x-api-key", "x-api-secret"];

const byRoute = new Map<string, Operations[OperationId]>(Object.values(operations).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));

/**
 * The middleware that adds the credentials each operation takes, and only those, and only
 * on the origin of `baseUrl` (a per-call `baseUrl` elsewhere is refused before sending).
 */
export function credentialsMiddleware(apiKey: string, apiSecret?: string, baseUrl?: string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const op = byRoute.get(`${request.method} ${schemaPath}`);
      if (!op) return request;
      // A relative baseUrl (a page's own `/v1`) resolves against the request's own URL.
      if (baseUrl !== undefined && new URL(request.url).origin !== new URL(baseUrl, request.url).origin) {
        throw new Error(`${request.method} ${schemaPath}: ${new URL(request.url).origin} is not the client's origin; credentials go to ${baseUrl} only`);
      }
      // Per-call headers could carry the other scheme; the server refuses a mix with 401.
      for (const name of credentialHeaders) request.headers.delete(name);
      if (op.security[0] === "apiKey") {
        if (!apiSecret) {
          throw new Error(`${request.method} ${schemaPath} authenticates with X-Api-Key + X-Api-Secret: ` + "create the client with apiSecret to call it");
        }
        request.headers.set("X-Api-Key", apiKey);
        request.headers.set("X-Api-Secret", apiSecret);
      } else {
        request.headers.set("Authorization", `Bearer ${apiKey}`);
      }
      return request;
    },
  };
}

/** Refuses options that would send no key, an empty secret, or credentials outside the middleware. */
function checkOptions(options: ApiClientOptions): void {
  if (typeof options.apiKey !== "string" || options.apiKey === "") {
    throw new Error("createApiClient: apiKey is required (the application's API key)");
  }
  if (options.apiSecret !== undefined && (typeof options.apiSecret !== "string" || options.apiSecret === "")) {
    throw new Error("createApiClient: apiSecret, when given, must be a non-empty string");
  }
  const smuggled = Object.keys(options.headers ?? {}).filter((name) => credentialHeaders.includes(name.toLowerCase()));
  if (smuggled.length > 0) {
    throw new Error(`createApiClient: pass credentials as apiKey/apiSecret, not as headers (${smuggled.join(", ")})`);
  }
}

/**
 * Creates a client for every operation. Without `apiSecret` the client's type has no
 * POST /notifications, so a call that would go out without its secret does not compile.
 */
export function createApiClient(options: ApiClientOptions & { apiSecret: string }): ApiClient<paths>;
export function createApiClient(options: ApiClientOptions & { apiSecret?: undefined }): ApiClient<BearerPaths>;
export function createApiClient(options: ApiClientOptions): ApiClient<paths> | ApiClient<BearerPaths> {
  checkOptions(options);
  const maxBytes = options.maxResponseBytes === false ? undefined : (options.maxResponseBytes ?? defaultMaxResponseBytes);
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw new Error(`createApiClient: maxResponseBytes must be a positive integer or false, got ${maxBytes}`);
  }
  // Every attempt goes through safeFetch: no redirect followed, bounded by the call's signal, body capped.
  const transport = (fetch: Fetch) => safeFetch(fetch, maxBytes);
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    // The global fetch is looked up per request, not when the client is made, so a client
    // made at module load still sees a fetch patched later (MSW's setupServer().listen()).
    fetch: transport(options.fetch ?? ((request: Request) => globalThis.fetch(request))),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  // Order matters: the timeout wraps the request as sent, and retries copy it with both.
  const deadlines = new CallDeadlines();
  client.use(credentialsMiddleware(options.apiKey, options.apiSecret, options.baseUrl));
  if (options.timeoutMs !== false) client.use(timeoutMiddleware(options.timeoutMs ?? defaultTimeoutMs, deadlines));
  if (options.retry !== false) client.use(retryMiddleware(options.retry ?? {}, deadlines));
  withRequestIds(client, requestIdOf(options.headers), transport);
  // Same object, stricter call signatures (see api-client.ts).
  return client as unknown as ApiClient<paths>;
}

type CallInit = { headers?: Parameters<typeof withRequestId>[0] } & Record<string, unknown>;
type Call = (url: string, init?: CallInit) => Promise<Record<string, unknown>>;
const callMethods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/**
 * Gives every call an X-Request-Id (the call's own, else the client's, else a fresh one) and
 * puts it on the result as `requestId`, and on a thrown error (network failure, timeout,
 * abort) as its `requestId` property.
 */
function withRequestIds(client: object, clientId: string | undefined, transport: (fetch: Fetch) => Fetch): void {
  const calls = client as Record<(typeof callMethods)[number], Call> & { request: (method: string, url: string, init?: CallInit) => Promise<Record<string, unknown>> };
  const send = async (init: CallInit | undefined, call: (init: CallInit) => Promise<Record<string, unknown>>) => {
    const requestId = requestIdOf(init?.headers) ?? clientId ?? newRequestId();
    // A fetch passed per call goes through the same transport as the client's.
    const fetch = typeof init?.fetch === "function" ? { fetch: transport(init.fetch as Fetch) } : {};
    try {
      return { ...(await call({ ...init, ...fetch, headers: withRequestId(init?.headers, requestId) })), requestId };
    } catch (error) {
      if (typeof error === "object" && error !== null && Object.isExtensible(error)) Object.assign(error, { requestId });
      throw error;
    }
  };
  for (const method of callMethods) {
    const original = calls[method];
    calls[method] = (url, init) => send(init, (sent) => original(url, sent));
  }
  const request = calls.request;
  calls.request = (method, url, init) => send(init, (sent) => request(method, url, sent));
}
