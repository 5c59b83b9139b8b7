// A body-reading error with a 5xx status is the server's failure, not the client's: it maps
// to 500 internal_error (logged as unexpected), never to a 400 that blames the request. A
// mutant that dropped the `< 500` bound mapped such errors to 400 and survived.
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { problemFor } from "../../../server/middleware/error-mapper.js";

const req = {} as Request;
const hints = new Map<string, Map<string, string>>();
const mapped = (error: unknown) => {
  const { problem, unexpected } = problemFor(error, req, hints);
  return { status: problem.status, code: problem.code, unexpected };
};

describe("body errors by status", () => {
  it.each([500, 503])("body-parser's %d (stream.not.readable and the like): 500 internal_error, unexpected", (status) => {
    expect(mapped(Object.assign(new Error("stream is not readable"), { type: "stream.not.readable", status, expose: false }))).toEqual({
      status: 500,
      code: "internal_error",
      unexpected: true,
    });
  });

  it.each([500, 502])("an untyped exposed error with status %d while reading: 500, not a client error", (status) => {
    expect(mapped(Object.assign(new Error("upstream"), { status, expose: true }))).toMatchObject({ status: 500, code: "internal_error" });
  });

  it("the 4xx counterparts stay the client's: 400", () => {
    expect(mapped(Object.assign(new Error("aborted"), { type: "request.aborted", status: 400, expose: true }))).toMatchObject({
      status: 400,
      code: "validation_failed",
      unexpected: false,
    });
    expect(mapped(Object.assign(new Error("incorrect header check"), { status: 400, expose: true }))).toMatchObject({ status: 400, unexpected: false });
  });
});
