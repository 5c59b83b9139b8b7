// Bodies are parsed one per event-loop turn, so that requests without a body are served
// between two parses: several 99 kB bodies completing together would otherwise hold the loop
// for as long as all their parses take. The strict JSON rules themselves are exercised through
// the server by the bad-input corpus (empty body, scalars, malformed text, charsets).
import type { Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { bodyRequired, jsonBody, turnQueue } from "../../../server/middleware/json-body.js";
import { ApiProblem } from "../../../server/problems.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("turnQueue", () => {
  it("runs tasks queued together on separate turns, letting other work in between", async () => {
    const order: string[] = [];
    const inTurn = turnQueue();
    inTurn(() => order.push("first body"));
    inTurn(() => order.push("second body"));
    inTurn(() => order.push("third body"));
    // Work that becomes ready after the bodies (a GET read in the same poll phase).
    setImmediate(() => order.push("other request"));
    for (let turn = 0; turn < 4; turn++) await nextTurn();
    expect(order).toEqual(["first body", "other request", "second body", "third body"]);
  });

  it("starts again after running empty", async () => {
    const inTurn = turnQueue();
    const ran: number[] = [];
    inTurn(() => ran.push(1));
    await nextTurn();
    await nextTurn();
    inTurn(() => ran.push(2));
    await nextTurn();
    expect(ran).toEqual([1, 2]);
  });
});

describe("jsonBody's parse step", () => {
  const parseStep = jsonBody(100).at(-1)! as RequestHandler;
  const run = (text: unknown) => {
    const req = { body: text } as Request;
    const calls: unknown[] = [];
    parseStep(req, {} as Response, (error?: unknown) => void calls.push(error));
    return { req, calls };
  };

  it("parses on a later turn, not when the text is read", async () => {
    const { req, calls } = run('{"name":"x"}');
    expect(calls).toEqual([]);
    expect(req.body).toBe('{"name":"x"}');
    await nextTurn();
    expect(calls).toEqual([undefined]);
    expect(req.body).toEqual({ name: "x" });
  });

  it.each([
    ["", undefined, {}],
    [" [1] ", undefined, [1]],
  ])("reads %j as a value", async (text, error, value) => {
    const { req, calls } = run(text);
    await nextTurn();
    expect(calls).toEqual([error]);
    expect(req.body).toEqual(value);
  });

  it.each([
    ["null", "validation_failed"],
    [' "text"', "validation_failed"],
    ["{", "malformed_json"],
    ["   ", "malformed_json"],
    // Only line breaks: no character after the whitespace for the first-character check to read.
    ["\n", "malformed_json"],
    ["\r\n", "malformed_json"],
  ])("refuses %j as %s", async (text, code) => {
    const { calls } = run(text);
    await nextTurn();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBeInstanceOf(ApiProblem);
    expect((calls[0] as ApiProblem).code).toBe(code);
  });

  it("passes a request without a text body straight on", () => {
    const { calls } = run(undefined);
    expect(calls).toEqual([undefined]);
  });
});

describe("a body a host app's parser read", () => {
  const parseStep = jsonBody(100).at(-1)! as RequestHandler;
  const passed = (body: unknown) => {
    const calls: unknown[] = [];
    parseStep({ body } as Request, {} as Response, (error?: unknown) => void calls.push(error));
    return calls;
  };

  // A non-strict host parser (`express.json({ strict: false })`) lets a scalar through.
  it.each([null, 1, true])("refuses %j as not an object, as the layer's own parser does", (body) => {
    const calls = passed(body);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBeInstanceOf(ApiProblem);
    expect(calls[0]).toMatchObject({ code: "validation_failed", errors: [{ in: "body", pointer: "", message: "must be object" }] });
  });

  it.each([[{}], [[]], [{ name: "x" }]])("passes %j on to the validator as it is", (body) => {
    expect(passed(body)).toEqual([undefined]);
  });
});

describe("bodyRequired", () => {
  it("leaves a body a host's parser set on a request without one to the validator (body-parser 1 sets `{}`)", () => {
    const calls: unknown[] = [];
    bodyRequired({ body: {}, is: () => null } as unknown as Request, {} as Response, (error?: unknown) => void calls.push(error));
    expect(calls).toEqual([undefined]);
  });
});
