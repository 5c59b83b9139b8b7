// MSW request handlers for frontend tests without a server: every operation answers what the
// mock answers (mock/answer.ts decides both: the documented example with the path's ids, lists
// paged, writes by the server's rules on the demo data, `Prefer` switches, generated data
// under Node), at a base URL, as the mock's request layer would send it: the request id
// echoed, the RateLimit fields of an unlimited API, CORS for any origin (preflights answered),
// every body framed by its length (MSW 3's socket interceptor makes an unframed one end on
// the socket's close, which undici asserts on when the call was aborted). A test picks another
// documented answer for an operation, or replaces one handler with its own typed resolver.
// No Node API: the handlers run in browsers too (generated data then answers a 400 naming Prefer).
import { http, HttpResponse, type DefaultBodyType, type HttpHandler, type HttpResponseResolver, type PathParams } from "msw";
import { examples, responseExamples, type ExampleName } from "../generated/examples.js";
import { operations, type OperationId } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import { answerFor, preferProblem, type Generate, type MockAnswer } from "../mock/answer.js";
import { preferenceOf, type Preference } from "../mock/prefer-header.js";
import { mockWrites } from "../mock/writes.js";
import { corsAllowedHeaders, corsMaxAgeSeconds, exposableHeaders, unlimitedRateLimitFields } from "../server/middleware/layer-headers.js";
import { ApiProblem, problemAt } from "../server/problems.js";
import demoSeed from "../server/seed/demo.json" with { type: "json" };
import type { Seed } from "../server/seed/types.js";

type Answers = typeof responseExamples;

/** A documented status of the operation. */
export type DocumentedStatus<Op extends OperationId> = keyof Answers[Op] & number;

/** A documented example of the operation's answer with `Status`. */
export type DocumentedExample<Op extends OperationId, Status extends DocumentedStatus<Op>> = Answers[Op][Status] extends {
  examples: readonly (infer Name)[];
}
  ? Name & ExampleName
  : never;

/** Which documented answer to give: the status (default: the success status) and one of its examples (default: the first). */
export interface Choice<Op extends OperationId, Status extends DocumentedStatus<Op> = DocumentedStatus<Op>> {
  status?: Status;
  example?: DocumentedExample<Op, Status>;
}

/** The operation object of the generated `paths` type. */
type Operation<Op extends OperationId> = (typeof operations)[Op]["path"] extends infer P extends keyof paths
  ? (typeof operations)[Op]["method"] extends infer M extends keyof paths[P]
    ? paths[P][M]
    : never
  : never;

/** Any body the operation documents for any status (what an overriding resolver may answer). */
export type ResponseBody<Op extends OperationId> =
  Operation<Op> extends { responses: infer R } ? { [S in keyof R]: R[S] extends { content: infer C } ? C[keyof C] : never }[keyof R] : never;

/** The operation's request body, or never. */
export type RequestBody<Op extends OperationId> = Operation<Op> extends { requestBody: { content: infer C } } ? C[keyof C] : never;

/** The operation's path parameters as MSW gives them (strings). */
export type Params<Op extends OperationId> = Operation<Op> extends { parameters: { path: infer P } } ? { [K in keyof P]: string } : Record<string, never>;

/** One documented answer, as generated/examples.ts lists it. */
interface Documented {
  /** null: a response without a body (a DELETE's 204). */
  contentType: string | null;
  headers: Readonly<Record<string, string>>;
  examples: readonly ExampleName[];
}

/** The URL pattern MSW matches for an operation: the base URL plus the path with `{id}` as `:id`. */
export function urlOf(operationId: OperationId, baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${operations[operationId].path.replace(/\{([^}]+)\}/g, ":$1")}`;
}

function method(operationId: OperationId) {
  return http[operations[operationId].method];
}

const ids = Object.keys(operations) as OperationId[];
const documentedOf = (operationId: OperationId, status: number) => (responseExamples[operationId] as unknown as Record<number, Documented | undefined>)[status];

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
function framed(status: number, body: unknown, contentType: string, headers: Headers): HttpResponse<DefaultBodyType> {
  const text = JSON.stringify(body);
  headers.set("Content-Type", `${contentType}; charset=utf-8`);
  headers.set("Content-Length", String(new TextEncoder().encode(text).byteLength));
  return new HttpResponse(text, { status, headers });
}

/** The mock's answer as MSW sends it: a success, or the problem the mock would send for this request. */
function respond(operationId: OperationId, answer: MockAnswer | ApiProblem, request: Request): HttpResponse<DefaultBodyType> {
  const headers = new Headers(answer.headers ?? {});
  layerHeaders(headers, request);
  if (answer instanceof ApiProblem) return framed(answer.status, problemAt(answer, new URL(request.url).pathname), "application/problem+json", headers);
  if (answer.body === undefined) return new HttpResponse(null, { status: answer.status, headers });
  return framed(answer.status, answer.body, documentedOf(operationId, answer.status)?.contentType ?? "application/json", headers);
}

/**
 * A response a test's resolver returned, as the handlers send their own: the layer's headers
 * (the resolver's own win), and a body of unknown length sent chunked, as a server streams
 * one (MSW 3 ends an unframed body on the socket's close: see the file's head). MSW's own
 * intents (`passthrough()`, `HttpResponse.error()`) and a resolver that answers nothing pass as they are.
 */
function served(response: unknown, request: Request): unknown {
  if (!(response instanceof Response) || response.type === "error" || response.headers.has("x-msw-intention")) return response;
  const headers = new Headers();
  layerHeaders(headers, request);
  response.headers.forEach((value, name) => headers.set(name, value));
  if (response.body !== null && !headers.has("content-length") && !headers.has("transfer-encoding")) headers.set("Transfer-Encoding", "chunked");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Generated data (`Prefer: dynamic=true`): Prism's generator over the bundled document, as the
 * mock's, loaded on the first such request. It needs Node; a bundler never follows these
 * imports (their specifiers are variables), and in a browser the request is a 400 naming Prefer.
 */
const generate: Generate = async (operationId, status) => {
  const modules = ["../mock/dynamic.js", "../server/document/load.js"];
  let loaded: [{ dynamicAnswer: (document: unknown, operationId: string, status: number) => Promise<unknown> }, { loadDocument: () => unknown }];
  try {
    loaded = (await Promise.all(modules.map((specifier) => import(/* @vite-ignore */ specifier)))) as typeof loaded;
  } catch {
    throw preferProblem("dynamic=true needs the data generator, which runs in Node (msw/node, the mock)");
  }
  return loaded[0].dynamicAnswer(loaded[1].loadDocument(), operationId, status);
};

/** The demo application whose records the examples are (Acme Shop): the handlers answer as to its key, whatever key is sent. */
const seed = demoSeed as unknown as Seed;
const caller = { applicationId: examples.WidgetRead.result.application_id };
const writes = mockWrites(seed);

/** The request's query as the mock's validator hands it on: integers as numbers, documented defaults filled in by answerFor. */
function queryOf(params: URLSearchParams): Record<string, unknown> {
  return Object.fromEntries([...params].map(([name, value]) => [name, /^-?\d{1,15}$/.test(value) ? Number(value) : value]));
}

interface AnswerSettings {
  dynamic: boolean;
  pages?: number;
  /** The answer when the request's Prefer names none. */
  choice?: { status?: number; example?: string };
}

/** The resolver of one operation: what the mock answers this request. */
function mockResolver(operationId: OperationId, settings: AnswerSettings): HttpResponseResolver {
  return async ({ request, params }) => {
    const url = new URL(request.url);
    const { preference: asked, query } = preferenceOf(request.headers.get("prefer"), url.searchParams);
    // A request's own Prefer wins over the test's choice, switch by switch.
    const preference: Preference = { ...settings.choice, ...asked };
    const body = operations[operationId].hasBody
      ? await request
          .clone()
          .json()
          .catch(() => undefined)
      : undefined;
    try {
      const answer = await answerFor(
        { operationId, path: params as Record<string, unknown>, query: queryOf(query), body, preference, caller },
        { dynamic: settings.dynamic, ...(settings.pages === undefined ? {} : { pages: settings.pages }), writes, generate },
      );
      return respond(operationId, answer, request);
    } catch (error) {
      if (error instanceof ApiProblem) return respond(operationId, error, request);
      throw error;
    }
  };
}

/** The answer to a CORS preflight, as the mock's: any origin, the document's methods, the request headers the API reads. */
function preflight(): HttpResponse<DefaultBodyType> {
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

/** The documented answer of an operation: status, content type, documented headers, a copy of the example body (framed by its length). */
export function documentedResponse<Op extends OperationId, Status extends DocumentedStatus<Op>>(
  operationId: Op,
  choice: Choice<Op, Status> = {},
): HttpResponse<DefaultBodyType> {
  const status = choice.status ?? operations[operationId].successStatus;
  const documented = documentedOf(operationId, status);
  if (!documented) throw new Error(`${operationId} documents no ${status} response`);
  const names = documented.examples;
  // A response without a body (a DELETE's 204): its status and headers only.
  if (documented.contentType === null) {
    if (choice.example !== undefined) throw new Error(`${operationId} ${status} has no body, so no example ${choice.example}`);
    return new HttpResponse(null, { status, headers: documented.headers });
  }
  const name = choice.example ?? names[0]!;
  if (!names.includes(name)) throw new Error(`${operationId} ${status} has no example ${name} (documented: ${names.join(", ")})`);
  return framed(status, examples[name], documented.contentType, new Headers(documented.headers));
}

/**
 * A handler answering one documented response of an operation, as the mock answers
 * `Prefer: code=…, example=…` (the request's own ids in it). Give it to `server.use()` in a
 * test to pick another status or example for that test (`resetHandlers()` goes back).
 */
export function answer<Op extends OperationId, Status extends DocumentedStatus<Op>>(operationId: Op, baseUrl: string, choice: Choice<Op, Status> = {}): HttpHandler {
  return method(operationId)(urlOf(operationId, baseUrl), mockResolver(operationId, { dynamic: false, choice }));
}

/**
 * A handler with your own resolver for one operation, typed by the document: `params` are
 * the operation's path parameters, `request.json()` its body, and the answer one of its
 * documented bodies. Give it to `server.use()` to replace the mock's answer; what it returns
 * is sent with the handlers' CORS, request id and RateLimit headers (its own win).
 */
export function override<Op extends OperationId>(
  operationId: Op,
  baseUrl: string,
  resolver: HttpResponseResolver<Params<Op> & PathParams, RequestBody<Op> & DefaultBodyType, ResponseBody<Op> & DefaultBodyType>,
): HttpHandler {
  const own = resolver as unknown as HttpResponseResolver;
  return method(operationId)(urlOf(operationId, baseUrl), async (info) => served(await own(info), info.request) as never);
}

export interface HandlersOptions {
  /** The API's base URL including `/v1`, e.g. `http://localhost:5173/v1` or `https://api.example.test/v1`. */
  baseUrl: string;
  /** A documented answer per operation other than its success example (a request's own Prefer still wins). */
  choose?: { [Op in OperationId]?: Choice<Op> };
  /**
   * Pages every list spans at the `limit` asked, the last one holding one record (default 1:
   * the documented records; 3 with generated data), as the mock's `pages`.
   */
  pages?: number;
  /** Generated data for every request whose Prefer says nothing (Node only), as the mock's `dynamic`. */
  dynamic?: boolean;
}

/**
 * Handlers for every operation, each answering what `npx authsvc-api mock` answers the same
 * request (mock/answer.ts decides both), and every path's CORS preflight. A request's
 * `Prefer: code=…, example=…, dynamic=…` header (or the `__code`, `__example`, `__dynamic`
 * query parameters) picks another answer, as on the mock; one the document does not hold is
 * the mock's 400 problem naming `Prefer`. The handlers check neither credentials nor the
 * request's values (the mock does): they answer as to the demo application of the examples.
 */
export function createHandlers(options: HandlersOptions): HttpHandler[] {
  if (options.pages !== undefined && !(Number.isInteger(options.pages) && options.pages >= 1))
    throw new Error(`createHandlers: pages must be an integer >= 1, got ${options.pages}`);
  const settings = (operationId: OperationId): AnswerSettings => ({
    dynamic: options.dynamic ?? false,
    ...(options.pages === undefined ? {} : { pages: options.pages }),
    ...(options.choose?.[operationId] ? { choice: options.choose[operationId] as AnswerSettings["choice"] } : {}),
  });
  const paths = [...new Set(ids.map((operationId) => urlOf(operationId, options.baseUrl)))];
  return [
    ...ids.map((operationId) => method(operationId)(urlOf(operationId, options.baseUrl), mockResolver(operationId, settings(operationId)))),
    ...paths.map((path) => http.options(path, preflight)),
  ];
}

export { examples, responseExamples, type ExampleName } from "../generated/examples.js";
