// MSW request handlers for frontend tests without a server: every operation answers what the
// mock answers (mock/answer.ts decides both: the documented example with the path's ids, lists
// paged, writes by the server's rules on the demo data, `Prefer` switches, generated data
// under Node), at a base URL, sent as the mock's request layer sends it (msw/served.ts), every
// path's CORS preflight answered. A test picks another documented answer for an operation, or
// replaces one handler with its own typed resolver. No Node API: the handlers run in browsers
// too (generated data then answers a 400 naming Prefer).
import { http, HttpResponse, type DefaultBodyType, type HttpHandler, type HttpResponseResolver, type PathParams } from "msw";
import { examples, type responseExamples, type ExampleName } from "../generated/examples.js";
import { operations, type OperationId } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import { answerFor, documentedAnswer, preferProblem, type Generate } from "../mock/answer.js";
import { preferenceOf, type Preference } from "../mock/prefer-header.js";
import { mockWrites } from "../mock/writes.js";
import { ApiProblem } from "../server/problems.js";
import demoSeed from "../server/seed/demo.json" with { type: "json" };
import type { Seed } from "../server/seed/types.js";
import { framed, preflight, respond, served } from "./served.js";

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

/** The URL pattern MSW matches for an operation: the base URL plus the path with `{id}` as `:id`. */
export function urlOf(operationId: OperationId, baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${operations[operationId].path.replace(/\{([^}]+)\}/g, ":$1")}`;
}

function method(operationId: OperationId) {
  return http[operations[operationId].method];
}

const ids = Object.keys(operations) as OperationId[];

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
      return respond(answer, request, documentedAnswer(operationId, answer.status)?.contentType ?? undefined);
    } catch (error) {
      if (error instanceof ApiProblem) return respond(error, request);
      throw error;
    }
  };
}

/** The documented answer of an operation: status, content type, documented headers, a copy of the example body (framed by its length). */
export function documentedResponse<Op extends OperationId, Status extends DocumentedStatus<Op>>(
  operationId: Op,
  choice: Choice<Op, Status> = {},
): HttpResponse<DefaultBodyType> {
  const status = choice.status ?? operations[operationId].successStatus;
  const documented = documentedAnswer(operationId, status);
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
