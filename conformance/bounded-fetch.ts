// Every request of a conformance run goes through the typed client's own transport
// (client/transport.ts), so that no target can hang the run, exhaust its memory or receive a
// credential elsewhere, by the same rules a client call keeps: no redirect is followed (a
// 301/302/303/307/308 is refused, with or without a Location), the body is capped (counted
// after decompression, so a gzip bomb is cut too), and here the answer (headers and the
// whole body) must come within `timeoutMs`. A breach is a HostileAnswer: a failure of the
// check, naming the request, never a crash of the run. With a StallGuard (stall.ts), a
// request is not sent once the target has stopped answering (TargetStalled).
import { RedirectError, ResponseTooLargeError } from "../client/errors.js";
import { untilAborted } from "../client/signals.js";
import { safeFetch } from "../client/transport.js";
import { HostileAnswer, TargetStalled } from "./errors.js";
import type { StallGuard } from "./stall.js";

/** The bounds of each request of a run (`--request-timeout`, `--max-response-bytes`). */
export interface Limits {
  /** Headers and the whole body within this many ms. */
  timeoutMs: number;
  /** At most this many bytes of body. */
  maxBodyBytes: number;
}

/**
 * 30 s, the typed client's own default: a service answers the suite's small requests in
 * milliseconds, but a first request that compiles or warms something on a loaded machine
 * took over 10 s here (the reference server in-process, load 27 on 2 cores).
 * 1 MiB: the document's largest answer (a page of 100 reports) is about 100 kB.
 */
export const defaultLimits: Limits = { timeoutMs: 30_000, maxBodyBytes: 1_048_576 };

/** A response with its whole body read, within the bounds. */
export interface Bounded {
  response: Response;
  bytes: Uint8Array;
}

/** Sends `request` within `limits`; throws HostileAnswer naming the request when the target breaks one, TargetStalled when `stall` says the target stopped answering. */
export async function boundedFetch(request: Request, limits: Limits, stall?: StallGuard): Promise<Bounded> {
  if (stall?.reason) throw new TargetStalled(stall.reason);
  const where = `${request.method} ${request.url}`;
  // The deadline is this call's own timer, raced here against the headers and each read of
  // the body. An abort that reaches them only through copies of the Request (fetch's own
  // signal, the transport's body guard) is lost once the garbage collector has taken a copy
  // in between: undici links a copy to its source's signal through a weak reference, and a
  // stalled body then kept the run waiting for good.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException(`${where}: no answer within ${limits.timeoutMs} ms`, "TimeoutError")), limits.timeoutMs);
  const sent = new Request(request, { signal: AbortSignal.any([request.signal, deadline.signal]) });
  let response: Response | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let received = 0;
  try {
    response = await untilAborted(safeFetch((r) => fetch(r), limits.maxBodyBytes)(sent), deadline.signal);
    const chunks: Uint8Array[] = [];
    if (response.body) {
      reader = response.body.getReader();
      for (let chunk = await untilAborted(reader.read(), deadline.signal); !chunk.done; chunk = await untilAborted(reader.read(), deadline.signal)) {
        received += chunk.value.byteLength;
        chunks.push(chunk.value);
      }
    }
    stall?.answered();
    return { response, bytes: Buffer.concat(chunks) };
  } catch (error) {
    reader?.cancel().catch(() => {});
    if (error instanceof RedirectError || error instanceof ResponseTooLargeError) stall?.answered();
    if (error instanceof RedirectError)
      throw new HostileAnswer(
        `${where} → ${error.status}: redirects${error.location ? ` to ${error.location}` : " (no Location)"}; not followed (credentials go to --base-url's origin only)`,
      );
    if (error instanceof ResponseTooLargeError) {
      const declared = response?.headers.get("content-length");
      const size = declared && Number(declared) > limits.maxBodyBytes ? `Content-Length ${declared}` : `over ${limits.maxBodyBytes} bytes received`;
      throw new HostileAnswer(`${where} → ${error.status}: body over the cap of ${limits.maxBodyBytes} bytes (--max-response-bytes): ${size}, not read further`);
    }
    if (!deadline.signal.aborted) throw error;
    stall?.silent(request);
    throw new HostileAnswer(
      response
        ? `${where} → ${response.status}: body not complete within ${limits.timeoutMs} ms (${received} bytes received; --request-timeout)`
        : `${where}: no answer within ${limits.timeoutMs} ms (--request-timeout)`,
    );
  } finally {
    clearTimeout(timer);
  }
}
