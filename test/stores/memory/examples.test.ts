// The demo seed and the document's examples are one set of records: every read operation
// answers its 200 example exactly, and each operation's first request example gives its
// 200 example (apart from generated ids and tokens), so docs, mock and server agree.
import { describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../../generated/operations.js";
import { openAuth } from "../../../server/crypto/email-auth.js";
import { callerA, setup } from "../../server/operations/harness.js";
import { demo } from "../../support/demo.js";
import { pathExample, requestExamples, responseExamples, successErrors } from "../../support/document.js";

// Operations without a request body that answer one: a success without a body (a DELETE's
// 204) has no example to answer; its own operation tests cover it.
const reads = (Object.keys(operations) as OperationId[]).filter((op) => !operations[op].hasBody && operations[op].responseType !== null);
const writes = (Object.keys(operations) as OperationId[]).filter((op) => operations[op].hasBody);
// Before the 2030 send_at of the notification example, after every demo record.
const now = new Date("2026-03-10T12:00:00.000Z");

/** What a response may differ in from its example: values the server makes fresh. */
const generated: Partial<Record<OperationId, (result: Record<string, unknown>) => Record<string, unknown>>> = {
  saveEmailTransport: ({ auth, ...rest }) => {
    expect(auth).toMatch(/^enc:v1:/);
    return rest;
  },
  createNotification: ({ id, ...rest }) => {
    expect(id).toMatch(/^ntf_[0-9a-f]{12}$/);
    return rest;
  },
};

describe("the demo seed answers the document's examples", () => {
  it("covers every operation", () => {
    // The tables below are these two lists: neither may come out empty.
    expect(reads.length).toBeGreaterThan(0);
    expect(writes.length).toBeGreaterThan(0);
    for (const op of reads) expect(responseExamples(op).length, op).toBeGreaterThan(0);
    for (const op of writes) expect(requestExamples(op).length, op).toBeGreaterThan(0);
  });

  it.each(reads)("%s answers its 200 example exactly", async (op) => {
    const { call } = setup(undefined, now);
    const body = await call(op, { path: pathExample(op) } as never);
    expect(successErrors(op, body)).toEqual([]);
    expect(responseExamples(op).length).toBeGreaterThan(0);
    for (const [, example] of responseExamples(op)) expect(body).toEqual(example);
  });

  it.each(writes)("%s: the first request example gives the 200 example", async (op) => {
    const { call } = setup(undefined, now);
    const [[, request]] = requestExamples(op) as [[string, unknown]];
    const [[, example]] = responseExamples(op) as [[string, { result: Record<string, unknown> }]];
    const caller = { applicationId: demo.a.applicationId, organizationId: demo.a.organizationId };
    const body = (await call(op, { path: pathExample(op), body: request, caller } as never)) as { type: string; result: Record<string, unknown> };
    expect(successErrors(op, body)).toEqual([]);
    const strip = generated[op] ?? ((result) => result);
    expect({ ...body, result: strip(body.result) }).toEqual({ ...example, result: strip(example.result) });
  });

  it.each(writes)("%s: every request example is accepted with an on-contract answer", async (op) => {
    expect(requestExamples(op).length).toBeGreaterThan(0);
    for (const [name, request] of requestExamples(op)) {
      const { call } = setup(undefined, now);
      const body = await call(op, { path: pathExample(op), body: request, caller: callerA } as never);
      expect(successErrors(op, body), name).toEqual([]);
    }
  });

  it("the e-mail example's token holds the example request's auth, encrypted", async () => {
    const { call } = setup(undefined, now);
    const [[, request]] = requestExamples("saveEmailTransport") as [[string, { auth: unknown }]];
    const body = await call("saveEmailTransport", { body: request as never });
    expect(openAuth(body.result.auth)).toEqual(request.auth);
    expect(JSON.stringify(body)).not.toContain((request.auth as { secretAccessKey: string }).secretAccessKey);
  });
});
