// MSW request handlers for frontend unit tests without a server: every operation answers
// its documented example at a base URL, as the mock does, and a test picks another
// documented status or example for one operation (as `Prefer` does on the mock), or
// replaces one handler with its own typed resolver. Status, content type, headers and
// bodies come from generated/examples.ts, so they say what the document says.
import { http, HttpResponse, type DefaultBodyType, type HttpHandler, type HttpResponseResolver, type PathParams } from "msw";
import { examples, responseExamples, type ExampleName } from "../generated/examples.js";
import { operations, type OperationId } from "../generated/operations.js";
import type { paths } from "../generated/schema.js";
import { parsePrefer } from "../mock/prefer-header.js";
import { problemKinds, problemTypeBase } from "../server/problems.js";

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

/**
 * The answer to a `Prefer` the document does not hold: the mock's 400 problem for this
 * request, naming the header, with what is documented in the message.
 */
function preferProblem(request: Request, message: string): HttpResponse<DefaultBodyType> {
  const { status, title } = problemKinds.validation_failed;
  const body = {
    type: `${problemTypeBase}validation_failed`,
    title,
    status,
    detail: `One value of the request is invalid. header Prefer: ${message}.`,
    instance: new URL(request.url).pathname,
    code: "validation_failed",
    errors: [{ in: "header", name: "Prefer", message }],
  };
  return new HttpResponse(JSON.stringify(body), { status, headers: { "Content-Type": "application/problem+json" } });
}

/** The documented answer of an operation: status, content type, headers, a copy of the example body. */
export function documentedResponse<Op extends OperationId, Status extends DocumentedStatus<Op>>(
  operationId: Op,
  choice: Choice<Op, Status> = {},
): HttpResponse<DefaultBodyType> {
  const status = choice.status ?? operations[operationId].successStatus;
  const documented = (responseExamples[operationId] as unknown as Record<number, Documented | undefined>)[status];
  if (!documented) throw new Error(`${operationId} documents no ${status} response`);
  const names = documented.examples;
  // A response without a body (a DELETE's 204): its status and headers only.
  if (documented.contentType === null) {
    if (choice.example !== undefined) throw new Error(`${operationId} ${status} has no body, so no example ${choice.example}`);
    return new HttpResponse(null, { status, headers: documented.headers });
  }
  const name = choice.example ?? names[0]!;
  if (!names.includes(name)) throw new Error(`${operationId} ${status} has no example ${name} (documented: ${names.join(", ")})`);
  return new HttpResponse(JSON.stringify(examples[name]), {
    status,
    headers: { ...documented.headers, "Content-Type": documented.contentType },
  });
}

/**
 * A handler answering one documented response of an operation. Give it to `server.use()` in a
 * test to pick another status or example for that test (`resetHandlers()` goes back).
 */
export function answer<Op extends OperationId, Status extends DocumentedStatus<Op>>(operationId: Op, baseUrl: string, choice: Choice<Op, Status> = {}): HttpHandler {
  return method(operationId)(urlOf(operationId, baseUrl), () => documentedResponse(operationId, choice));
}

/**
 * A handler with your own resolver for one operation, typed by the document: `params` are
 * the operation's path parameters, `request.json()` its body, and the answer one of its
 * documented bodies. Give it to `server.use()` to replace the documented answer.
 */
export function override<Op extends OperationId>(
  operationId: Op,
  baseUrl: string,
  resolver: HttpResponseResolver<Params<Op> & PathParams, RequestBody<Op> & DefaultBodyType, ResponseBody<Op> & DefaultBodyType>,
): HttpHandler {
  return method(operationId)(urlOf(operationId, baseUrl), resolver as unknown as HttpResponseResolver);
}

export interface HandlersOptions {
  /** The API's base URL including `/v1`, e.g. `http://localhost:5173/v1` or `https://api.example.test/v1`. */
  baseUrl: string;
  /** A documented answer per operation other than its success example. */
  choose?: { [Op in OperationId]?: Choice<Op> };
}

const kindOf = (value: unknown) => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value);

/**
 * The default answer of a write, closer to what a server answers: the documented record
 * with the request's own values for the fields it has, of the same kind (a string for a
 * string, a list for a list), and the path's id. Without the server's rules or data (the
 * mock, `startMock`, runs those: `sort: "UP"` moving a provider, a sealed `auth`, a derived
 * `domain`), so a field sent in another form than the record's keeps the example's value.
 */
async function answerWithRequest(response: HttpResponse<DefaultBodyType>, request: Request, params: Record<string, unknown>): Promise<HttpResponse<DefaultBodyType>> {
  const sent = (await request
    .clone()
    .json()
    .catch(() => undefined)) as Record<string, unknown> | undefined;
  const answered = (await response.clone().json()) as { result?: Record<string, unknown> };
  const record = answered.result;
  if (!record || typeof record !== "object" || Array.isArray(record)) return response;
  for (const [field, value] of Object.entries(sent && typeof sent === "object" ? sent : {})) {
    if (Object.hasOwn(record, field) && kindOf(record[field]) === kindOf(value)) record[field] = value;
  }
  if (typeof params.id === "string" && "id" in record) record.id = params.id;
  return new HttpResponse(JSON.stringify(answered), { status: response.status, headers: response.headers });
}

/**
 * Handlers for every operation, each answering its documented success example (a write:
 * with the request's values put in, see answerWithRequest), or the answer `choose` names. A request's `Prefer: code=…, example=…` header picks another documented
 * answer, as on the mock; one the document does not hold (`code=abc`, a status or example
 * the operation does not document) is the mock's 400 problem naming `Prefer` and what is
 * documented. The
 * request's X-Request-Id is echoed, as the server and the mock echo it.
 */
export function createHandlers(options: HandlersOptions): HttpHandler[] {
  return (Object.keys(operations) as OperationId[]).map((operationId) =>
    method(operationId)(urlOf(operationId, options.baseUrl), async ({ request, params }) => {
      const { status, example, invalid } = parsePrefer(request.headers.get("prefer"));
      const choice = { ...(options.choose?.[operationId] ?? {}), ...(status ? { status } : {}), ...(example ? { example } : {}) } as Choice<typeof operationId>;
      const statuses = Object.keys(responseExamples[operationId]).join(", ");
      let response: HttpResponse<DefaultBodyType>;
      if (invalid) response = preferProblem(request, `${invalid}; ${operationId} documents statuses ${statuses}`);
      else {
        try {
          response = documentedResponse(operationId, choice);
          // A write's default answer (no status or example asked for) answers what was sent.
          const asked = choice.status !== undefined || choice.example !== undefined;
          if (operations[operationId].hasBody && !asked) response = await answerWithRequest(response, request, params);
        } catch (error) {
          response = preferProblem(request, `${(error as Error).message} (statuses: ${statuses})`);
        }
      }
      // As the server and the mock do: the caller's request id comes back.
      const requestId = request.headers.get("x-request-id");
      if (requestId) response.headers.set("X-Request-Id", requestId);
      return response;
    }),
  );
}

export { examples, responseExamples, type ExampleName } from "../generated/examples.js";
