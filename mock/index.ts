// The mock: Prism (the libraries of @stoplight/prism-cli 5.14.2) run in-process over the
// bundled document. Prism routes on the operation paths and ignores the server URL's path,
// so the operations are handed to it with the base path (`/v1`) in front: the mock serves
// exactly the URLs the server does, and anything outside the base path is Prism's 404.
// In-process means no child process to leak: close() is all the cleanup there is.
import { createLogger } from "@stoplight/prism-core";
import { getHttpOperationsFromSpec, type IHttpConfig } from "@stoplight/prism-http";
import { createServer } from "@stoplight/prism-http-server";
import { Server } from "node:http";
import type { LevelWithSilent } from "pino";
import { basePathOf, loadDocument } from "../server/http/document.js";
import { guarded, type UnknownQueryCheck } from "./guard.js";
import { unknownQueryCheck } from "./unknown-query.js";

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Answer with generated data instead of the documented examples (per request: `Prefer: dynamic=true`). */
  dynamic?: boolean;
  /** Prism's log level; default `silent`. `error` shows each request violation. */
  logLevel?: LevelWithSilent;
}

export interface RunningMock {
  /** Base URL of the API, ending in the document's base path, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  close(): Promise<void>;
}

// Prism logs whole requests on errors; credentials and e-mail auth never reach a log line.
const redact = ["authorization", "x-api-key", "x-api-secret"]
  .map((header) => `input.headers["${header}"]`)
  .concat(["input.body.auth"]);

/** Starts the mock on a free port (or the one given) and resolves once it listens. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const document = loadDocument();
  const basePath = basePathOf(document);
  const operations = (await getHttpOperationsFromSpec(document)).map((operation) => ({
    ...operation,
    path: `${basePath}${operation.path}`,
  }));

  const config: IHttpConfig = {
    mock: { dynamic: options.dynamic ?? false },
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  };
  const logger = createLogger("MOCK", { level: options.logLevel ?? "silent", redact });
  const server = createServer(operations, { cors: true, config, components: { logger } });
  const listening = withGuard(() => server.listen(options.port ?? 0, options.host ?? "127.0.0.1"), unknownQueryCheck(document, basePath));
  const address = await listening;
  return { url: `${address}${basePath}`, close: () => server.close() };
}

/**
 * Runs Prism's listen with mock/guard.ts in front of its request listener. Prism does not
 * expose its node:http server, so the server is taken as it starts listening (synchronously,
 * inside `listen`) and its one request listener is wrapped.
 */
function withGuard<T>(listen: () => T, unknownQuery: UnknownQueryCheck): T {
  const original = Server.prototype.listen;
  const own = Object.hasOwn(Server.prototype, "listen");
  let server: Server | undefined;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    server = this;
    return original.apply(this, args as never);
  } as typeof original;
  try {
    return listen();
  } finally {
    if (own) Server.prototype.listen = original;
    else delete (Server.prototype as { listen?: unknown }).listen;
    const [prism, ...others] = server?.listeners("request") ?? [];
    if (!server || !prism || others.length) throw new Error("Prism's server was not found: the mock cannot guard it");
    server.removeAllListeners("request");
    server.on("request", guarded(prism as Parameters<typeof guarded>[0], unknownQuery));
  }
}
