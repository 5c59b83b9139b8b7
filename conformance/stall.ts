// A target that has stopped answering: requests to three different operations, one after
// the other with no complete answer in between, got none within the request timeout. From
// then on the run sends it nothing: each step and check left is skipped, naming why, so a
// stalled target is reported after about three request timeouts (a minute and a half at the
// defaults) instead of one per request left (half an hour). One or two hung operations do
// not stop the run: an answer to any request in between, or more silent requests to the
// same operations, leave the guard where it was.
import { operations } from "../generated/operations.js";

/** `GET /widgets/{id}` for a request to that operation under `basePath`; the request's own method and path otherwise. */
function operationAt(method: string, pathname: string, basePath: string): string {
  const segments = pathname.split("/");
  for (const operation of Object.values(operations)) {
    if (operation.method !== method.toLowerCase()) continue;
    const template = `${basePath}${operation.path}`.split("/");
    if (template.length === segments.length && template.every((part, i) => (/^\{\w+\}$/.test(part) ? segments[i] !== "" : part === segments[i])))
      return `${method.toUpperCase()} ${operation.path}`;
  }
  return `${method.toUpperCase()} ${pathname}`;
}

/** How many different operations must go silent in a row. */
const stalledAfter = 3;

export class StallGuard {
  readonly #basePath: string;
  readonly #timeoutMs: number;
  /** The operations whose requests got no complete answer since the last answer. */
  #silent: string[] = [];
  #reason: string | undefined;

  /** For a target at `baseUrl` whose requests have `timeoutMs` each. */
  constructor(baseUrl: string, timeoutMs: number) {
    this.#basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
    this.#timeoutMs = timeoutMs;
  }

  /** Why the run sends the target nothing more; undefined while it answers. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** A request got its whole answer (or one the run refused: a redirect, a body over the cap). */
  answered(): void {
    this.#silent = [];
  }

  /** A request got no complete answer within the timeout. */
  silent(request: Request): void {
    const operation = operationAt(request.method, new URL(request.url).pathname, this.#basePath);
    if (!this.#silent.includes(operation)) this.#silent.push(operation);
    if (this.#silent.length >= stalledAfter && this.#reason === undefined)
      this.#reason = `not run: the target stopped answering (${this.#silent.slice(0, -1).join(", ")} and ${this.#silent.at(-1)} got no complete answer within ${this.#timeoutMs} ms, one after the other, and nothing answered in between; --request-timeout)`;
  }
}
