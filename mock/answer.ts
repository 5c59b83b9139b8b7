// What the mock answers a request, decided in this one place for both mocks: the mock server
// (mock/answers.ts, behind the reference server's request layer, which has checked the
// credentials and validated the request) and the MSW handlers (msw/index.ts, in a test's
// process or a browser, which check neither). From the document alone (generated/examples.ts):
// - the operation's documented success example, with the path's ids put where the example
//   has its own (the id asked for is the id answered);
// - for a list, the page asked for, paged by the server's rule: the documented records, or
//   with `pages` as many more (each with an id of its own) as fill that many pages at the
//   `limit` asked, the last page holding one record;
// - for a write, what the server answers that request on its freshly seeded demo data
//   (mock/writes.ts);
// - another documented status or example when `Prefer` asks for one, a problem sent as the
//   server's for this request, naming the request's own id; a `Prefer` the document does not
//   hold is the 400 problem naming it;
// - data generated from the schema (`dynamic`), by a generator passed in (it needs Node).
// No Node API here: the handlers run in browsers.
import { examples, parameterExamples, responseExamples, type ExampleName } from "../generated/examples.js";
import { operations, type OperationId } from "../generated/operations.js";
import { ApiProblem, type ProblemCode, type ProblemErrorItem } from "../server/problems.js";
import { pageOf } from "../server/rules/paging.js";
import { reportDateBounds } from "../server/rules/report-dates.js";
import type { Preference } from "./prefer-header.js";
import type { Write } from "./writes.js";

/** A request as the mock reads it. */
export interface MockRequest {
  operationId: OperationId;
  /** The path parameters, decoded. */
  path: Record<string, unknown>;
  /** The query parameters, integers as numbers (`limit`, `page`, the report dates). */
  query: Record<string, unknown>;
  body?: unknown;
  /** The request's `Prefer` switches (mock/prefer-header.ts). */
  preference: Preference;
  /** Whose demo records a write starts from. */
  caller: { applicationId: string };
}

/** A success to send; a problem is thrown as an ApiProblem. */
export interface MockAnswer {
  status: number;
  /** The documented headers of the answer that the request layer does not set itself. */
  headers: Record<string, string>;
  /** undefined: an answer without a body (a DELETE's 204). */
  body?: unknown;
}

/** Generates a body for the operation's `status` answer from its schema (mock/dynamic.ts). */
export type Generate = (operationId: OperationId, status: number) => Promise<unknown>;

export interface AnswerOptions {
  /** Generated data when a request's Prefer says nothing about `dynamic`. */
  dynamic: boolean;
  /** Pages every list spans (default 1 for the examples, as documented; 3 for generated data). */
  pages?: number;
  /** The writes' answers (mock/writes.ts). */
  writes: Partial<Record<OperationId, Write>>;
  /** The generator behind `dynamic`; without it a request for generated data is a 400 naming `Prefer`. */
  generate?: Generate;
}

/** Pages a list of generated data spans unless `pages` says otherwise. */
export const dynamicPages = 3;

/** One documented answer, as generated/examples.ts lists it. */
export interface Documented {
  /** null: a response without a body (a DELETE's 204). */
  contentType: string | null;
  headers: Readonly<Record<string, string>>;
  examples: readonly ExampleName[];
}

const answersOf = (operationId: OperationId) => responseExamples[operationId] as unknown as Record<number, Documented | undefined>;

/** The operation's documented answer with `status`, or undefined. */
export const documentedAnswer = (operationId: OperationId, status: number): Documented | undefined => answersOf(operationId)[status];

/**
 * The server's rules that judge a request by its values alone, run before answering as the
 * server runs them; every other rule needs the server's data (docs/mock.md).
 */
const statelessRules: Partial<Record<OperationId, (request: MockRequest) => void>> = {
  findEncryptionReports: ({ query }) => void reportDateBounds(query.start_date as number | undefined, query.end_date as number | undefined),
};

/** Headers the request layer sets on every answer: a documented example value must not replace them. */
const setByLayer = /^(x-request-id|access-control-.*|ratelimit|ratelimit-policy|deprecation|sunset|link)$/i;

/** `value` with every string equal to a key of `swap` replaced by that key's value. */
function swapStrings(value: unknown, swap: Map<string, string>): unknown {
  if (typeof value === "string") return swap.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => swapStrings(item, swap));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swapStrings(item, swap)]));
  return value;
}

/**
 * `value` with every id of each path parameter's kind (its example's prefix, `whk_` for
 * `whk_3a7f1c9e5b2d`) replaced by the requested id: a documented problem's detail names some
 * id of that kind (`Webhook whk_0000000000 was not found.`), the answer names the one asked for.
 */
function swapIdsOfKind(value: string, operationId: OperationId, path: Record<string, unknown>): string {
  let swapped = value;
  for (const [name, example] of Object.entries<string>(parameterExamples[operationId].path)) {
    const prefix = /^([a-z]+_)[A-Za-z0-9]+$/.exec(example)?.[1];
    if (prefix && typeof path[name] === "string") swapped = swapped.replace(new RegExp(`\\b${prefix}[A-Za-z0-9]+\\b`, "g"), () => path[name] as string);
  }
  return swapped;
}

/** A request's Prefer that names no documented answer: a 400 naming the header, as any other bad value. */
export function preferProblem(message: string): ApiProblem {
  const errors: ProblemErrorItem[] = [{ in: "header", name: "Prefer", message }];
  return new ApiProblem("validation_failed", `One value of the request is invalid. header Prefer: ${message}.`, errors);
}

function documentedHeaders(documented: Documented): Record<string, string> {
  return Object.fromEntries(Object.entries(documented.headers).filter(([name]) => !setByLayer.test(name)));
}

/**
 * The documented headers of a simulated 429 that the layer would otherwise set itself: its
 * RateLimit says no quota is left, reset when its Retry-After says (the document's 429
 * example), whatever the layer's own limiter counted.
 */
function rateLimitedHeaders(documented: Documented): Record<string, string> {
  return Object.fromEntries(Object.entries(documented.headers).filter(([name]) => /^(ratelimit|ratelimit-policy|retry-after)$/i.test(name)));
}

const integer = (value: unknown): number | undefined => (typeof value === "number" && Number.isInteger(value) ? value : undefined);

/** Record `index` of a list made longer than its documented records: a copy of one with an id of its own, within the 64 characters of an Id. */
function recordAt(records: readonly unknown[], index: number): unknown {
  const record = records[index % records.length];
  if (index < records.length || !record || typeof record !== "object" || typeof (record as { id?: unknown }).id !== "string") return record;
  const suffix = `_${index + 1}`;
  return { ...record, id: `${(record as { id: string }).id.slice(0, 64 - suffix.length)}${suffix}` };
}

/** The page asked for of a list body, paged by the server's rule: its records, or `limit` × (pages − 1) + 1 of them. */
function listPage(body: { result: unknown[] }, operationId: OperationId, query: Record<string, unknown>, pages: number): unknown {
  const defaults = parameterExamples[operationId].queryDefaults as { limit?: number; page?: number };
  const limit = integer(query.limit) ?? defaults.limit ?? body.result.length;
  const page = integer(query.page) ?? defaults.page ?? 1;
  const total = pages <= 1 || body.result.length === 0 ? body.result.length : limit * (pages - 1) + 1;
  const records = Array.from({ length: total }, (_, index) => recordAt(body.result, index));
  return { ...body, ...pageOf(records, { limit, page }) };
}

/** The answer to `request`, or an ApiProblem thrown: the documented problem asked for, a bad Prefer, a rule the request breaks. */
export async function answerFor(request: MockRequest, options: AnswerOptions): Promise<MockAnswer> {
  const { operationId, preference, path, query } = request;
  statelessRules[operationId]?.(request);
  const answers = answersOf(operationId);
  const success = operations[operationId].successStatus;
  const statuses = Object.keys(answers).join(", ");
  if (preference.invalid) {
    const named = answers[preference.status ?? success]?.examples.join(", ") ?? "";
    throw preferProblem(`${preference.invalid}; ${operationId} documents statuses ${statuses}, examples ${named} for ${preference.status ?? success}`);
  }
  const status = preference.status ?? success;
  const documented = answers[status];
  if (!documented) throw preferProblem(`code=${status} is not a documented status of ${operationId} (${statuses})`);
  if (documented.contentType === null) {
    // A response without a body (a DELETE's 204): its status and headers only.
    if (preference.example !== undefined) throw preferProblem(`example=${preference.example} is not an example of ${operationId} ${status} (it has no body)`);
    return { status, headers: documentedHeaders(documented) };
  }
  const name = (preference.example ?? documented.examples[0]!) as ExampleName;
  if (!documented.examples.includes(name)) {
    throw preferProblem(`example=${name} is not an example of ${operationId} ${status} (${documented.examples.join(", ")})`);
  }
  if (status >= 400) {
    // The server's problem for this request (its path as `instance`), with the example's
    // code, detail and errors, naming the request's own id: what the operation answers in that case.
    const problem = examples[name] as { code: ProblemCode; detail: string; errors?: readonly ProblemErrorItem[] };
    const errors = problem.errors?.map((error) => ({ ...error, message: swapIdsOfKind(error.message, operationId, path) }));
    const headers = { ...documentedHeaders(documented), ...(status === 429 ? rateLimitedHeaders(documented) : {}) };
    throw new ApiProblem(problem.code, swapIdsOfKind(problem.detail, operationId, path), errors, headers);
  }
  const dynamic = preference.dynamic ?? options.dynamic;
  const write = options.writes[operationId];
  let body: unknown;
  if (dynamic) {
    if (!options.generate) throw preferProblem("dynamic=true needs the data generator, which runs in Node (the MSW handlers under msw/node, the mock)");
    body = await options.generate(operationId, status);
    // Random within the schema but for the record's id: the path's.
    const result = (body as { result?: unknown }).result;
    if (result && typeof result === "object" && !Array.isArray(result) && "id" in result && typeof path.id === "string") {
      body = { ...(body as object), result: { ...result, id: path.id } };
    }
  } else if (write && preference.example === undefined) {
    // The default answer of a write: the server's answer to this request (a named example is that example).
    body = { ...(examples[name] as object), result: write({ path, body: request.body, caller: request.caller }) };
  } else {
    const swap = new Map(Object.entries<string>(parameterExamples[operationId].path).map(([param, example]) => [example, String(path[param])]));
    body = swapStrings(examples[name], swap);
  }
  if (operations[operationId].list && Array.isArray((body as { result?: unknown }).result)) {
    body = listPage(body as { result: unknown[] }, operationId, query, options.pages ?? (dynamic ? dynamicPages : 1));
  }
  return { status, headers: documentedHeaders(documented), body };
}
