// The body guard's own contract (client/body.ts), where the client's calls cannot show it:
// `onEnd` runs once however the body ends, even when a read was waiting at the abort.
import { expect, it } from "vitest";
import { guardBody } from "../../client/body.js";

it("an abort while a read waits on the source ends the body with the abort's reason, and onEnd runs once", async () => {
  // A source that never delivers (a stalled upstream): the read is pending when the call aborts.
  const stalled = new Response(new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }, { highWaterMark: 0 }));
  const caller = new AbortController();
  let ends = 0;
  const read = guardBody(stalled, { signal: caller.signal, onEnd: () => ends++ }).text();
  await new Promise((resolve) => setImmediate(resolve));
  caller.abort("stop");
  await expect(read).rejects.toBe("stop");
  await new Promise((resolve) => setImmediate(resolve));
  expect(ends).toBe(1);
});
