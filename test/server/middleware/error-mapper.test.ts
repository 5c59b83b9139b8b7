// The one error mapper, called directly: which problem each kind of failure becomes (an
// ApiProblem, express-openapi-validator's HttpError, body-parser's typed errors from a host
// app's parser, zlib's untyped exposed errors, Express's URIError, anything else), whether it
// is logged as unexpected, the bounds of the problem body, and what the middleware does when
// the response has already started. The HTTP suites meet most of these through a server;
// here each branch gets the input that tells it from its neighbours (n-1 and n of each bound).
import type { Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { errorMapper, problemBody, problemFor, ResponseValidationFailed } from "../../../server/middleware/error-mapper.js";
import { ApiProblem, problemLimits } from "../../../server/problems.js";

const hints = new Map([["findEncryptionReports", new Map([["query:limit", "Page size, 10 to 100"]])]]);
const request = (extra: Record<string, unknown> = {}) => ({ method: "GET", originalUrl: "/v1/reports/encryption?limit=500", ...extra }) as unknown as Request;

/** The problem an error becomes, as a client reads it, and whether it is logged as unexpected. */
const mapped = (error: unknown, req = request()) => {
  const { problem, unexpected } = problemFor(error, req, hints);
  return { status: problem.status, code: problem.code, detail: problem.detail, errors: problem.errors, unexpected };
};

const unexpected500 = {
  status: 500,
  code: "internal_error",
  detail: "An unexpected error occurred. The X-Request-Id of this response identifies it in the server log.",
  errors: undefined,
  unexpected: true,
};
const tooLarge = { status: 413, code: "payload_too_large", detail: "The request body is larger than 100 kB.", errors: undefined, unexpected: false };
const notJson = {
  status: 415,
  code: "unsupported_media_type",
  detail: "The request body must be sent as application/json.",
  errors: undefined,
  unexpected: false,
};

/** An error shaped as body-parser's (http-errors with a `type`). */
const bodyParserError = (type: unknown, status: number) => Object.assign(new Error(String(type)), { type, status, expose: status < 500 });
/** express-openapi-validator's HttpError: an Error with a numeric status and errors[]. */
const validatorError = (status: number, errors: { path?: string; message: string }[] = []) => Object.assign(new Error("eov"), { status, errors });

describe("problemFor: an ApiProblem", () => {
  it("is answered as thrown; only internal_error is logged as unexpected", () => {
    const notFound = new ApiProblem("not_found", "No widget wgt_000000000000.");
    expect(problemFor(notFound, request(), hints)).toEqual({ problem: notFound, unexpected: false });
    const internal = new ApiProblem("internal_error", "The store is unreachable.");
    expect(problemFor(internal, request(), hints)).toEqual({ problem: internal, unexpected: true });
  });
});

describe("problemFor: anything that is not an error it knows", () => {
  it.each([null, undefined, "boom", 42, new Error("database password is hunter2")])("%s is a generic 500, logged as unexpected, never a crash of the mapper", (error) => {
    expect(mapped(error)).toEqual(unexpected500);
  });

  it("an Error with a 4xx status it does not expose (not the client's to read) is a 500, not a read failure or a validator error", () => {
    expect(mapped(Object.assign(new Error("upstream said 404"), { status: 404 }))).toEqual(unexpected500);
  });

  it("a plain object shaped like the validator's error (not an Error) is a 500", () => {
    expect(mapped({ status: 400, errors: [{ path: "/query/limit", message: "must be <= 100" }] })).toEqual(unexpected500);
  });
});

describe("problemFor: body-parser's errors (a host app's express.json() in front of the layer)", () => {
  it("entity.too.large: 413 payload_too_large, naming the limit of the parser that refused it", () => {
    expect(mapped(bodyParserError("entity.too.large", 413))).toEqual(tooLarge);
    // A host's express.json({ limit: "1kb" }) or ({ limit: "1mb" }) in front of the layer, and a limit not in whole kB.
    const withLimit = (limit: unknown) => mapped(Object.assign(bodyParserError("entity.too.large", 413), { limit })).detail;
    expect(withLimit(1024)).toBe("The request body is larger than 1 kB.");
    expect(withLimit(1024 * 1024)).toBe("The request body is larger than 1024 kB.");
    expect(withLimit(1500)).toBe("The request body is larger than 1500 bytes.");
    for (const odd of [0, -1, 1.5, "1kb", null]) expect(withLimit(odd)).toBe("The request body is larger than 100 kB.");
  });

  it("entity.parse.failed: 400 malformed_json, the same problem as the layer's own parser", () => {
    expect(mapped(bodyParserError("entity.parse.failed", 400))).toEqual({
      status: 400,
      code: "malformed_json",
      detail: "The request body is not valid JSON.",
      errors: [{ in: "body", pointer: "", message: "not valid JSON" }],
      unexpected: false,
    });
  });

  it.each(["charset.unsupported", "encoding.unsupported"])("%s: 415 unsupported_media_type", (type) => {
    expect(mapped(bodyParserError(type, 415))).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
      detail: "The request body must be application/json in UTF-8, without an unsupported Content-Encoding.",
      unexpected: false,
    });
  });

  it("any other 4xx (request.aborted): 400 validation_failed, the body could not be read", () => {
    expect(mapped(bodyParserError("request.aborted", 400))).toEqual({
      status: 400,
      code: "validation_failed",
      detail: "The request body could not be read.",
      errors: undefined,
      unexpected: false,
    });
  });

  it("a status below 400 is not the client's error: 500 (the lower bound of the 4xx range)", () => {
    expect(mapped(bodyParserError("request.aborted", 399))).toEqual(unexpected500);
  });

  it("only a string `type` starting with body-parser's families marks its errors", () => {
    // Another library's error whose type merely contains `request.`, and a type that only
    // stringifies to body-parser's: neither is read as a body error.
    expect(mapped(Object.assign(new Error("upstream"), { type: "upstream.request.failed", status: 400 }))).toEqual(unexpected500);
    expect(mapped(Object.assign(new Error("odd"), { type: ["entity.too.large"], status: 413 }))).toEqual(unexpected500);
  });
});

describe("problemFor: zlib's untyped errors while reading a body (status and expose only)", () => {
  it("400: malformed_json, asking about the Content-Encoding", () => {
    expect(mapped(Object.assign(new Error("incorrect header check"), { status: 400, expose: true }))).toEqual({
      status: 400,
      code: "malformed_json",
      detail: "The request body could not be read (is its Content-Encoding right?).",
      errors: [{ in: "body", pointer: "", message: "could not be decoded" }],
      unexpected: false,
    });
  });

  it("413 and 415 keep their meaning", () => {
    expect(mapped(Object.assign(new Error("too large"), { status: 413, expose: true }))).toEqual(tooLarge);
    expect(mapped(Object.assign(new Error("unsupported"), { status: 415, expose: true }))).toEqual(notJson);
  });

  it("an exposed status below 400, or one that is not a number, is not a client error: 500", () => {
    expect(mapped(Object.assign(new Error("odd"), { status: 399, expose: true }))).toEqual(unexpected500);
    expect(mapped(Object.assign(new Error("odd"), { status: "400", expose: true }))).toEqual(unexpected500);
  });
});

describe("problemFor: express-openapi-validator's errors", () => {
  const outOfRange = [{ path: "/query/limit", message: "must be <= 100", errorCode: "maximum.openapi.validation" }];

  it("400: validation_failed naming each value, with the operation's parameter hint", () => {
    const req = request({ openapi: { schema: { operationId: "findEncryptionReports" } } });
    expect(mapped(validatorError(400, outOfRange), req)).toEqual({
      status: 400,
      code: "validation_failed",
      detail: "One value of the request is invalid. query limit: must be <= 100 (Page size, 10 to 100).",
      errors: [{ in: "query", name: "limit", message: "must be <= 100 (Page size, 10 to 100)" }],
      unexpected: false,
    });
  });

  it.each([
    ["no operation matched yet", {}],
    ["an operation without its schema", { openapi: {} }],
  ])("400 on a request with %s: the values named, without a hint", (_label, extra) => {
    expect(mapped(validatorError(400, outOfRange), request(extra))).toMatchObject({
      status: 400,
      errors: [{ in: "query", name: "limit", message: "must be <= 100" }],
      unexpected: false,
    });
  });

  it("404: not_found naming the method, not the path (the path is the instance)", () => {
    expect(mapped(validatorError(404), request({ method: "PATCH" }))).toEqual({
      status: 404,
      code: "not_found",
      detail: "No operation serves PATCH at this path.",
      errors: undefined,
      unexpected: false,
    });
  });

  it("413 and 415 keep their meaning", () => {
    expect(mapped(validatorError(413))).toEqual(tooLarge);
    expect(mapped(validatorError(415))).toEqual(notJson);
  });

  it.each([405, 500])("%d, which the layer answers elsewhere: a generic 500, logged as unexpected", (status) => {
    expect(mapped(validatorError(status))).toEqual(unexpected500);
  });
});

describe("problemFor: Express's URIError (a path parameter it could not decode)", () => {
  it("is 400 validation_failed on the path, not a 500", () => {
    expect(mapped(new URIError("URI malformed"))).toEqual({
      status: 400,
      code: "validation_failed",
      detail: "One value of the request is invalid. path: is not valid percent-encoding.",
      errors: [{ in: "path", message: "is not valid percent-encoding" }],
      unexpected: false,
    });
  });
});

describe("problemBody: the bounds of the Problem schema", () => {
  const req = { url: "/v1/widgets/wgt_5a3c8e1f7b92" } as Request;
  const body = (problem: ApiProblem) => problemBody(problem, req);

  it("keeps a detail of exactly the limit; one character more is cut to the limit, ending in …", () => {
    const { detail } = problemLimits;
    expect(body(new ApiProblem("conflict", "d".repeat(detail))).detail).toBe("d".repeat(detail));
    expect(body(new ApiProblem("conflict", `${"d".repeat(detail)}e`)).detail).toBe(`${"d".repeat(detail - 1)}…`);
  });

  it("cuts a long name and pointer the same way, and adds neither to an item without it", () => {
    const { name, pointer } = problemLimits;
    const problem = new ApiProblem("validation_failed", "Two values.", [
      { in: "query", name: "n".repeat(name + 1), message: "Unknown query parameter" },
      { in: "body", pointer: `/${"p".repeat(pointer)}`, message: "must be string" },
      { in: "query", name: "n".repeat(name), message: "must be integer" },
    ]);
    expect(body(problem).errors).toEqual([
      { in: "query", name: `${"n".repeat(name - 1)}…`, message: "Unknown query parameter" },
      { in: "body", pointer: `/${"p".repeat(pointer - 2)}…`, message: "must be string" },
      { in: "query", name: "n".repeat(name), message: "must be integer" },
    ]);
  });
});

describe("ResponseValidationFailed", () => {
  it("names itself, so a stack or a log line says what failed", () => {
    const error = new ResponseValidationFailed({
      message: "/response/type must be equal to constant",
      failures: [{ pointer: "/type", message: "must be equal to constant" }],
    });
    expect(String(error)).toBe("ResponseValidationFailed: response validation failed: /response/type must be equal to constant");
  });
});

describe("errorMapper", () => {
  /** A response that records what the mapper writes, and a request whose log records its lines. */
  const exchange = (headersSent = false) => {
    const log = { error: vi.fn() };
    const written: { status?: number; headers: Record<string, unknown>; type?: string; body?: string } = { headers: {} };
    const res = {
      headersSent,
      status: vi.fn((status: number) => ((written.status = status), res)),
      set: vi.fn((headers: Record<string, unknown>) => (Object.assign(written.headers, headers), res)),
      type: vi.fn((type: string) => ((written.type = type), res)),
      send: vi.fn((body: string) => ((written.body = body), res)),
      removeHeader: vi.fn(),
    };
    const req = { method: "GET", url: "/v1/widgets/wgt_5a3c8e1f7b92", log } as unknown as Request;
    return { req, res: res as unknown as Response, log, written, next: vi.fn() };
  };

  it("after the response started: no second answer, the error goes on to Express and is logged", () => {
    const { req, res, log, written, next } = exchange(true);
    const error = new Error("stream broke");
    errorMapper(hints)(error, req, res, next);
    expect(next).toHaveBeenCalledWith(error);
    expect(log.error.mock.calls).toEqual([[{ err: error }, "error after the response started"]]);
    expect(written).toEqual({ headers: {} });
  });

  it("logs an unexpected error, and nothing for a client's problem", () => {
    const failed = exchange();
    const error = new Error("database password is hunter2");
    errorMapper(hints)(error, failed.req, failed.res, failed.next);
    expect(failed.log.error.mock.calls).toEqual([[{ err: error }, "unexpected error"]]);
    expect(failed.written.status).toBe(500);

    const missing = exchange();
    errorMapper(hints)(new ApiProblem("not_found", "No widget wgt_5a3c8e1f7b92."), missing.req, missing.res, missing.next);
    expect(missing.log.error).not.toHaveBeenCalled();
    expect(missing.written).toMatchObject({ status: 404, type: "application/problem+json" });
    expect(JSON.parse(missing.written.body!)).toMatchObject({ code: "not_found", instance: "/v1/widgets/wgt_5a3c8e1f7b92" });
    expect(missing.next).not.toHaveBeenCalled();
  });
});
