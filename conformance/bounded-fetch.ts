// Every request of a conformance run goes through here, so that no target can hang the run,
// exhaust its memory or receive a credential elsewhere: the answer (headers and the whole
// body) must come within `timeoutMs`, its body may hold at most `maxBodyBytes` (counted
// after decompression, so a gzip bomb is cut too), and a redirect is never followed
// (following it would re-send X-Api-Key and X-Api-Secret: fetch strips only Authorization
// on a cross-origin redirect). A breach is a HostileAnswer: a failure of the check, naming
// the request, never a crash of the run.
import { ConformanceError } from "./expect.js";

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

/** An answer that breaks a bound: late, endless or too large. */
export class HostileAnswer extends ConformanceError {
  override name = "HostileAnswer";
}

/** A response with its whole body read, within the bounds. */
export interface Bounded {
  response: Response;
  bytes: Uint8Array;
}

/** Sends `request` within `limits`; throws HostileAnswer naming the request when the target breaks one. */
export async function boundedFetch(request: Request, limits: Limits): Promise<Bounded> {
  const where = `${request.method} ${request.url}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  let response: Response | undefined;
  let received = 0;
  const tooLarge = (size: string) =>
    new HostileAnswer(`${where} → ${response!.status}: body over the cap of ${limits.maxBodyBytes} bytes (--max-response-bytes): ${size}, not read further`);
  try {
    response = await fetch(request, { redirect: "manual", signal: controller.signal });
    // No operation documents a 3xx: name where it points, and go nowhere.
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null)
      throw new HostileAnswer(`${where} → ${response.status}: redirects to ${location}; not followed (credentials go to --base-url's origin only)`);
    const declared = Number(response.headers.get("content-length") ?? "");
    if (declared > limits.maxBodyBytes) throw tooLarge(`Content-Length ${declared}`);
    const chunks: Uint8Array[] = [];
    if (response.body) {
      for await (const chunk of response.body) {
        received += chunk.byteLength;
        if (received > limits.maxBodyBytes) throw tooLarge(`${received} bytes received`);
        chunks.push(chunk);
      }
    }
    return { response, bytes: Buffer.concat(chunks) };
  } catch (error) {
    const late = controller.signal.aborted;
    // Whatever was not read is dropped with its connection, not left streaming into memory.
    controller.abort();
    if (error instanceof HostileAnswer || !late) throw error;
    throw new HostileAnswer(
      response
        ? `${where} → ${response.status}: body not complete within ${limits.timeoutMs} ms (${received} bytes received; --request-timeout)`
        : `${where}: no answer within ${limits.timeoutMs} ms (--request-timeout)`,
    );
  } finally {
    clearTimeout(timer);
  }
}
