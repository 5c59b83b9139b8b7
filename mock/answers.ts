// The mock's handlers: one per operation, answering from the document alone. A request has
// already passed the reference server's own layer (credentials, validation, limits), so a
// handler only picks what to answer: the operation's documented success example by
// default, with the path's ids put where the example has its own (the id asked for is the
// id answered); for a write, what the server answers that request on its seeded demo data
// (mock/writes.ts); another documented status or example when `Prefer` asks for one, sent
// as the server's problem for this request (naming the request's own id); or data
// generated from the schema (`dynamic`). A `Prefer` the document does not hold is a 400.
import { examples, responseExamples, type ExampleName } from "../generated/examples.js";
import { ApiProblem, type ProblemCode, type ProblemErrorItem } from "../server/problems.js";
import { operationsOf, resolveRef, type ApiDocument } from "../server/document/load.js";
import type { ParameterObject } from "../server/document/types.js";
import { current, type Preference } from "./prefer.js";
import { dynamicAnswer } from "./dynamic.js";
import { reportDateBounds } from "../server/rules/report-dates.js";
import { demoSeedUrl } from "./credentials.js";
import { mockWrites } from "./writes.js";

/**
 * The server's rules that judge a request by its values alone, run before answering as the
 * server runs them; every other rule needs the server's data (docs/mock.md).
 */
const statelessRules: Record<string, (input: Input) => void> = {
  findEncryptionReports: ({ query }) => void reportDateBounds(query.start_date as number | undefined, query.end_date as number | undefined),
};

interface Documented {
  /** null: a response without a body (a DELETE's 204). */
  contentType: string | null;
  headers: Readonly<Record<string, string>>;
  examples: readonly ExampleName[];
}

/** What a handler receives from the contract layer, as far as the mock reads it. */
interface Input {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
  caller: { applicationId: string };
}

type Handler = (input: Input) => Promise<unknown>;

/** Headers the layer itself sets on every answer: a documented example value must not replace them. */
const setByLayer = /^(x-request-id|access-control-.*|ratelimit|ratelimit-policy|deprecation|sunset|link)$/i;

const deepCopy = <T>(value: T): T => structuredClone(value) as T;

/** `value` with every string equal to a key of `swap` replaced by that key's value. */
function swapStrings(value: unknown, swap: Map<string, string>): unknown {
  if (typeof value === "string") return swap.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => swapStrings(item, swap));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swapStrings(item, swap)]));
  return value;
}

/** The path parameters of each operation with their documented example value. */
function pathExamples(document: ApiDocument): Map<string, { name: string; example: string }[]> {
  return new Map(
    operationsOf(document).map(({ operationId, operation }) => [
      operationId,
      (operation.parameters ?? [])
        .map((p) => resolveRef<ParameterObject>(document, p))
        .filter((p) => p.in === "path" && typeof p.example === "string")
        .map((p) => ({ name: p.name, example: p.example as string })),
    ]),
  );
}

/**
 * `value` with every id of the path parameter's kind (its example's prefix, `whk_` for
 * `whk_3a7f1c9e5b2d`) replaced by the requested id: a documented problem's detail names
 * some id of that kind (`Webhook whk_0000000000 was not found.`), the answer to this request
 * names the one asked for.
 */
function swapIdsOfKind(value: string, params: { name: string; example: string }[], path: Record<string, unknown>): string {
  let swapped = value;
  for (const { name, example } of params) {
    const prefix = /^([a-z]+_)[A-Za-z0-9]+$/.exec(example)?.[1];
    if (prefix && typeof path[name] === "string") swapped = swapped.replace(new RegExp(`\\b${prefix}[A-Za-z0-9]+\\b`, "g"), () => path[name] as string);
  }
  return swapped;
}

/**
 * The documented headers of a simulated 429 that the layer would otherwise set itself: its
 * RateLimit says no quota is left, reset when its Retry-After says (the document's 429
 * example), whatever the layer's own limiter counted (with a limit on, r=593 on a 429).
 */
function rateLimitedHeaders(documented: Documented): Record<string, string> {
  return Object.fromEntries(Object.entries(documented.headers).filter(([name]) => /^(ratelimit|ratelimit-policy|retry-after)$/i.test(name)));
}

/** A request's Prefer that names no documented answer: a 400 naming the header, as any other bad value. */
function undocumented(message: string): ApiProblem {
  const errors: ProblemErrorItem[] = [{ in: "header", name: "Prefer", message }];
  return new ApiProblem("validation_failed", `One value of the request is invalid. header Prefer: ${message}.`, errors);
}

function documentedHeaders(documented: Documented): Record<string, string> {
  const res = current.getStore()?.res;
  return Object.fromEntries(Object.entries(documented.headers).filter(([name]) => !setByLayer.test(name) && !res?.hasHeader(name)));
}

/** The mock's handler map over `document`; `dynamic` is the default when a request's Prefer says nothing. */
export function mockHandlers(document: ApiDocument, options: { dynamic: boolean; seedFile?: string | URL }): Record<string, Handler> {
  const ids = pathExamples(document);
  const writes = mockWrites(options.seedFile ?? demoSeedUrl);
  const handlers: Record<string, Handler> = {};
  for (const { operationId } of operationsOf(document)) {
    const answers = (responseExamples as unknown as Record<string, Record<number, Documented>>)[operationId];
    if (!answers) throw new Error(`generated/examples.ts has no answers for ${operationId}: run npm run generate`);
    const success = Number(Object.keys(answers).find((status) => /^2/.test(status)));
    handlers[operationId] = async (input) => {
      statelessRules[operationId]?.(input);
      const preference: Preference = current.getStore()?.preference ?? {};
      const statuses = Object.keys(answers).join(", ");
      if (preference.invalid) {
        const named = answers[preference.status ?? success]?.examples.join(", ") ?? "";
        throw undocumented(`${preference.invalid}; ${operationId} documents statuses ${statuses}, examples ${named} for ${preference.status ?? success}`);
      }
      const status = preference.status ?? success;
      const documented = answers[status];
      if (!documented) throw undocumented(`code=${status} is not a documented status of ${operationId} (${statuses})`);
      if (documented.contentType === null) {
        // A response without a body (a DELETE's 204): its status and headers only.
        if (preference.example !== undefined) throw undocumented(`example=${preference.example} is not an example of ${operationId} ${status} (it has no body)`);
        return { status, headers: documentedHeaders(documented) };
      }
      const name = preference.example ?? documented.examples[0]!;
      if (!documented.examples.includes(name as ExampleName)) {
        throw undocumented(`example=${name} is not an example of ${operationId} ${status} (${documented.examples.join(", ")})`);
      }
      const params = ids.get(operationId) ?? [];
      const swap = new Map(params.map(({ name: param, example }) => [example, String(input.path[param])]));
      if (status >= 400) {
        // The server's problem for this request (its path as `instance`), with the example's
        // code, detail and errors, naming the request's own id: what the operation answers
        // in that case.
        const problem = examples[name as ExampleName] as { code: ProblemCode; detail: string; errors?: ProblemErrorItem[] };
        const errors = problem.errors?.map((error) => ({ ...deepCopy(error), message: swapIdsOfKind(error.message, params, input.path) }));
        const headers = { ...documentedHeaders(documented), ...(status === 429 ? rateLimitedHeaders(documented) : {}) };
        throw new ApiProblem(problem.code, swapIdsOfKind(problem.detail, params, input.path), errors, headers);
      }
      const write = writes[operationId];
      const body =
        (preference.dynamic ?? options.dynamic)
          ? await dynamicAnswer(document, operationId, status, input)
          : write && preference.example === undefined
            ? // The default answer of a write: the server's answer to this request (a named example is that example).
              { ...(examples[name as ExampleName] as object), result: write(input) }
            : swapStrings(deepCopy(examples[name as ExampleName]), swap);
      return { status, body, headers: documentedHeaders(documented) };
    };
  }
  return handlers;
}
