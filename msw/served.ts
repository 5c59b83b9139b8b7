// How the MSW handlers send an answer, as the mock's request layer sends it: the request id
// echoed (or a fresh one), the RateLimit fields of an API without a limit, CORS for any origin
// with the document's response headers exposed, preflights answered; and every body framed:
// MSW 3.0.5's socket interceptor (@mswjs/interceptors 0.45) ends a mocked body that has neither
// Content-Length nor Transfer-Encoding on the mock socket's close, and when the call was
// aborted meanwhile undici throws an uncaught `assert(!this.aborted)` that fails a test run.
import { HttpResponse, type DefaultBodyType } from "msw";
import { responseExamples } from "../generated/examples.js";
import { operations, type OperationId } from "../generated/operations.js";
import type { Documented, MockAnswer } from "../mock/answer.js";
import { corsAllowedHeaders, corsMaxAgeSeconds, exposableHeaders, unlimitedRateLimitFields } from "../server/middleware/layer-headers.js";
import { ApiProblem, problemAt } from "../server/problems.js";

const ids = Object.keys(operations) as OperationId[];

/** The methods the document serves, as the mock's preflight lists them. */
const methods = [...new Set(ids.map((operationId) => operations[operationId].method.toUpperCase()))].join(",");
/** Every response header the document declares that a page may read only when exposed (the mock's list). */
const exposed = exposableHeaders(ids.flatMap((operationId) => Object.values<Documented>(responseExamples[operationId]).flatMap((answer) => Object.keys(answer.headers))));

/** What the mock's request layer adds to every answer: CORS for any origin, the request id, the RateLimit fields. */
function layerHeaders(headers: Headers, request: Request | undefined): void {
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", exposed.join(","));
  // The caller's request id comes back, else a fresh one, as the server and the mock do.
  headers.set("X-Request-Id", request?.headers.get("x-request-id") || crypto.randomUUID());
  for (const [name, value] of Object.entries(unlimitedRateLimitFields)) if (!headers.has(name)) headers.set(name, value);
}

/** A JSON answer framed by its length (an unframed one ends only when MSW 3's mock socket closes), its charset named as the mock names it. */
export function framed(status: number, body: unknown, contentType: string, headers: Headers): HttpResponse<DefaultBodyType> {
  const text = JSON.stringify(body);
  headers.set("Content-Type", `${contentType}; charset=utf-8`);
  headers.set("Content-Length", String(new TextEncoder().encode(text).byteLength));
  return new HttpResponse(text, { status, headers });
}

/** The mock's answer as MSW sends it (its documented content type): a success, or the problem the mock would send for this request. */
export function respond(answer: MockAnswer | ApiProblem, request: Request, contentType = "application/json"): HttpResponse<DefaultBodyType> {
  const headers = new Headers(answer.headers ?? {});
  layerHeaders(headers, request);
  if (answer instanceof ApiProblem) return framed(answer.status, problemAt(answer, new URL(request.url).pathname), "application/problem+json", headers);
  if (answer.body === undefined) return new HttpResponse(null, { status: answer.status, headers });
  return framed(answer.status, answer.body, contentType, headers);
}

/**
 * A response a test's resolver returned, as the handlers send their own: the layer's headers
 * (the resolver's own win), and a body of unknown length sent chunked, as a server streams one
 * (see the file's head). MSW's own intents (`passthrough()`, `HttpResponse.error()`) and a
 * resolver that answers nothing pass as they are.
 */
export function served(response: unknown, request: Request): unknown {
  if (!(response instanceof Response) || response.type === "error" || response.headers.has("x-msw-intention")) return response;
  const headers = new Headers();
  layerHeaders(headers, request);
  response.headers.forEach((value, name) => headers.set(name, value));
  if (response.body !== null && !headers.has("content-length") && !headers.has("transfer-encoding")) headers.set("Transfer-Encoding", "chunked");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The answer to a CORS preflight, as the mock's: any origin, the document's methods, the request headers the API reads. */
export function preflight(): HttpResponse<DefaultBodyType> {
  return new HttpResponse(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": methods,
      "Access-Control-Allow-Headers": corsAllowedHeaders.join(","),
      "Access-Control-Max-Age": String(corsMaxAgeSeconds),
      "Content-Length": "0",
    },
  });
}
