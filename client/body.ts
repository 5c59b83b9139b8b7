// A response's body as the client reads it: every read ends when the call's signal aborts
// (the time budget or the caller's own signal), even when the fetch underneath does not end
// its stream on abort (MSW's interceptor, a fetch a test passes in); and with a byte limit,
// the body errors as soon as it has passed the limit, so no more than that is ever buffered.

import { ResponseTooLargeError } from "./errors.js";

export interface BodyGuard {
  /** The call's signal: an abort errors the body with its reason. */
  signal: AbortSignal;
  /** The most bytes the body may have (decoded, as read); more is a `ResponseTooLargeError`. */
  maxBytes?: number;
  /** Called once when the body is done: read to its end, errored, cancelled or aborted. */
  onEnd?: () => void;
  /**
   * How to stop the source when the body is given up before its end (an error, the limit, a
   * cancel): the transport aborts the attempt's fetch (client/transport.ts), and what the
   * aborted fetch still hands over is read and dropped, up to `maxBytes` (default 4 MiB) more,
   * the source cancelled past it (a fetch that ignores its signal). Without it, the source's
   * stream is cancelled.
   */
  letGo?: (reason: unknown) => void;
}

/**
 * Reads and drops what `source` still hands over, cancelling it past `bound` bytes. After its
 * fetch was aborted a source ends at once (undici errors it; happy-dom errors or ends it with
 * what it had received, and throws an uncaught error if it was cancelled before that); only a
 * fetch that ignores its signal keeps it going, and is cancelled (not awaited: under MSW 2's
 * interceptor a cancel never settles).
 */
async function drain(source: ReadableStreamDefaultReader<Uint8Array>, bound: number): Promise<void> {
  for (let read = 0; read <= bound; ) {
    const chunk = await source.read();
    if (chunk.done) return;
    read += chunk.value.byteLength;
  }
  source.cancel().catch(() => {});
}

/** Statuses whose Response cannot carry a body (the Response constructor refuses one). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** `response` with its body guarded; a response without a body is returned as it is. */
export function guardBody(response: Response, { signal, maxBytes, onEnd, letGo }: BodyGuard): Response {
  if (response.body === null || nullBodyStatuses.has(response.status)) {
    onEnd?.();
    return response;
  }
  const source = response.body.getReader();
  let received = 0;
  let ended = false;
  let failure: unknown;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const end = () => {
    if (ended) return false;
    ended = true;
    signal.removeEventListener("abort", abort);
    onEnd?.();
    return true;
  };
  const release = (reason: unknown) => {
    if (!letGo) {
      // Not awaited: under msw/node's interceptor a body's cancel() never settles.
      source.cancel(reason).catch(() => {});
      return;
    }
    letGo(reason);
    drain(source, maxBytes ?? 4 * 1024 * 1024).catch(() => {});
  };
  const fail = (error: unknown) => {
    if (!end()) return;
    failure = error;
    controller.error(error);
    release(error);
  };
  const abort = () => fail(signal.reason);

  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        if (signal.aborted) return abort();
        signal.addEventListener("abort", abort, { once: true });
        // A declared length already over the limit ends the body before any of it is read
        // (only when not compressed: the limit counts decoded bytes).
        const declared = Number(response.headers.get("content-length"));
        if (maxBytes !== undefined && !response.headers.has("content-encoding") && declared > maxBytes) {
          fail(new ResponseTooLargeError(maxBytes, response.status));
        }
      },
      async pull() {
        let chunk: Awaited<ReturnType<typeof source.read>>;
        try {
          chunk = await source.read();
        } catch (error) {
          return fail(signal.aborted ? signal.reason : error);
        }
        if (ended) return;
        if (chunk.done) {
          end();
          return controller.close();
        }
        received += chunk.value.byteLength;
        if (maxBytes !== undefined && received > maxBytes) return fail(new ResponseTooLargeError(maxBytes, response.status));
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        end();
        release(reason);
      },
    },
    // Pull one chunk per read: nothing is read ahead of the consumer.
    { highWaterMark: 0 },
  );
  const guarded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A new Response has no URL; keep the one the answer came from, as the caller may log it.
  Object.defineProperties(guarded, { url: { value: response.url }, redirected: { value: response.redirected } });
  // Chromium rejects text(), json()… with a TypeError whatever error the stream had: the
  // guard's own (the TimeoutError, the ResponseTooLargeError) is the one to report.
  for (const name of ["arrayBuffer", "blob", "bytes", "formData", "json", "text"] as const) {
    const read = (guarded as unknown as Record<string, (() => Promise<unknown>) | undefined>)[name];
    if (typeof read !== "function") continue;
    const reported = () =>
      read.call(guarded).catch((error: unknown) => {
        throw failure ?? error;
      });
    Object.defineProperty(guarded, name, { value: reported });
  }
  return guarded;
}
