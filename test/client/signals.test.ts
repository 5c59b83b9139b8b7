// The fallbacks of anySignal() and timeoutSignal() for browsers without AbortSignal.any and
// AbortSignal.timeout, in this process with both deleted: test/client/browser.test.ts runs
// them in Chromium, where a mutation test cannot see them, so they are pinned here too.
// And what the client leaves on the signal of a request it sent: nothing, once the call is over.
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { anySignal, createApiClient, timeoutSignal } from "../../client/index.js";
import { successExample } from "../support/document.js";

const native = { any: Object.getOwnPropertyDescriptor(AbortSignal, "any")!, timeout: Object.getOwnPropertyDescriptor(AbortSignal, "timeout")! };

/** The reason a signal aborts with, or "pending" if it has not. */
const state = (signal: AbortSignal) => (signal.aborted ? signal.reason : "pending");

describe("without AbortSignal.any and AbortSignal.timeout", () => {
  beforeEach(() => {
    delete (AbortSignal as { any?: unknown }).any;
    delete (AbortSignal as { timeout?: unknown }).timeout;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    Object.defineProperty(AbortSignal, "any", native.any);
    Object.defineProperty(AbortSignal, "timeout", native.timeout);
  });

  it("anySignal aborts with the reason of the first signal that aborts, and only then", () => {
    const [first, second] = [new AbortController(), new AbortController()];
    const any = anySignal([first.signal, second.signal]);
    expect(typeof AbortSignal.any).toBe("undefined");
    expect(state(any)).toBe("pending");
    second.abort("second");
    expect(state(any)).toBe("second");
    first.abort("first");
    expect(state(any)).toBe("second");
  });

  it("anySignal lets go of the other signals once one aborts: a long-lived caller's signal keeps no listener per call", () => {
    const [caller, timer] = [new AbortController(), new AbortController()];
    anySignal([caller.signal, timer.signal]);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    timer.abort("timeout");
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("anySignal of an already aborted signal is aborted at once, with its reason", () => {
    const live = new AbortController();
    const any = anySignal([live.signal, AbortSignal.abort("gone"), AbortSignal.abort("later")]);
    expect(state(any)).toBe("gone");
  });

  it("timeoutSignal aborts after exactly ms with a TimeoutError", async () => {
    const signal = timeoutSignal(500);
    await vi.advanceTimersByTimeAsync(499);
    expect(state(signal)).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect({ name: signal.reason.name, message: signal.reason.message }).toEqual({ name: "TimeoutError", message: "The operation timed out." });
  });
});

describe("with AbortSignal.any and AbortSignal.timeout", () => {
  it("uses them as they are", () => {
    const any = vi.spyOn(AbortSignal, "any");
    const timeout = vi.spyOn(AbortSignal, "timeout");
    const signals = [new AbortController().signal];
    expect(anySignal(signals)).toBe(any.mock.results[0]!.value);
    expect(any).toHaveBeenCalledWith(signals);
    expect(timeoutSignal(1000)).toBe(timeout.mock.results[0]!.value);
    expect(timeout).toHaveBeenCalledWith(1000);
    vi.restoreAllMocks();
  });
});

describe("the client's listeners on the signal of each request it sends", () => {
  const readWidget = (fetch: (request: Request) => Promise<Response>, signal?: AbortSignal) =>
    createApiClient({ baseUrl: "http://api.test/v1", apiKey: "ak_test", fetch, retry: false }).GET("/widgets/{id}", {
      params: { path: { id: "wgt_5a3c8e1f7b92" } },
      ...(signal ? { signal } : {}),
    });

  it("none is left once the answer and its body have been read", async () => {
    const sent: Request[] = [];
    const { data } = await readWidget(async (request) => (sent.push(request), Response.json(successExample("readWidget"))));
    expect(data).toEqual(successExample("readWidget"));
    expect(getEventListeners(sent[0]!.signal, "abort")).toHaveLength(0);
  });

  it("none is left once the call is aborted, even while the fetch never answers", async () => {
    const sent: Request[] = [];
    const caller = new AbortController();
    const call = readWidget((request) => (sent.push(request), new Promise<Response>(() => {})), caller.signal);
    await vi.waitFor(() => expect(sent).toHaveLength(1), { interval: 1 });
    caller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(getEventListeners(sent[0]!.signal, "abort")).toHaveLength(0);
  });
});
