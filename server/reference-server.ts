// The reference server: this repository's handlers over a store (the demo data, a seed file
// or PostgreSQL), served by the package's contract layer (server/contract-layer/), the same
// code a consumer's service runs. Three ways in, each built on the one before:
// `createReferenceApp` builds the Express app and never listens; `startServer` listens on a
// free port with a seed (tests, the conformance suite and the benchmarks start servers
// through it; the server package's main export); `runReferenceServer` is the program that
// `npm start` (server/main.ts, from the environment) and `authsvc-api serve` (cli/serve.ts,
// from its flags) run from a configuration (server/config.ts), so both have the same
// defaults. SIGTERM/SIGINT stop accepting connections, finish in-flight requests, and exit 0.
import type { Server } from "node:http";
import type express from "express";
import type { ServerConfig } from "./config.js";
import { createContractApp, type ContractAppOptions } from "./contract-layer/app.js";
import type { Handlers } from "./contract-layer/contract.js";
import { listen, type ListenOptions } from "./contract-layer/listen.js";
import { useEmailAuthKey } from "./crypto/email-auth.js";
import type { Store } from "./domain/index.js";
import { createHandlers } from "./handlers/index.js";
import { createLogger } from "./middleware/logging.js";
import { demoSeedFile, loadSeed } from "./seed/load.js";
import type { Seed } from "./seed/types.js";
import { createStore } from "./store/memory.js";
import type { OpenedDatabase } from "./store/postgres/open.js";

/** The layer's options the reference server passes through, as `createContractApp` documents them. */
type LayerOptions = Pick<
  ContractAppOptions,
  "logger" | "validateResponses" | "rateLimit" | "failedAuthLimit" | "concurrencyLimit" | "addressInFlight" | "trustProxy" | "cors"
>;

export interface ReferenceAppOptions extends LayerOptions {
  /** The data every handler reads and writes, and the credentials it authenticates. */
  store: Store;
  /** The current time for rules (`send_at`, timestamps); tests pin it. */
  clock?: () => Date;
  /** Unknown paths: the 404 problem (`"problem"`, default: the reference server is only the API) or `next()`. */
  unmatched?: "next" | "problem";
  /** Replace some handlers (tests plug in a deliberately wrong or throwing one). */
  handlers?: Partial<Handlers>;
}

/** Builds the app over the store's data and credentials. */
export function createReferenceApp(options: ReferenceAppOptions): express.Express {
  const { store, clock = () => new Date(), handlers, unmatched = "problem", ...layer } = options;
  return createContractApp({ ...layer, unmatched, handlers: { ...createHandlers({ store, clock }), ...handlers }, authenticate: store });
}

export interface StartOptions extends Partial<ReferenceAppOptions>, Pick<ListenOptions, "signals" | "onSignal" | "onClosed" | "onCloseError"> {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Seed file to load when no `store` is given; default the demo seed. */
  seedFile?: string;
  /** How long close() waits for in-flight requests before cutting connections (ms, default 10 000). */
  closeTimeoutMs?: number;
  /** How long close() keeps idle keep-alive sockets open for their clients to learn `Connection: close` (ms, default 1000; server/middleware/drain.ts). */
  idleGraceMs?: number;
  /** How long a client may take to send a whole request, body included, before a 408 (ms, default 30 000). */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  /** Base URL including the `/v1` base path, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests are answered (server/contract-layer/listen.ts). */
  close(): Promise<void>;
  app: express.Express;
  store: Store;
  server: Server;
}

/** The reference server through the same `listen` a service gets from `@authsvc/app-api-server/express`. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const {
    port = 0,
    host = "127.0.0.1",
    seedFile,
    closeTimeoutMs = 10_000,
    idleGraceMs,
    requestTimeoutMs = 30_000,
    signals,
    onSignal,
    onClosed,
    onCloseError,
    ...appOptions
  } = options;
  const store = appOptions.store ?? createStore(loadSeed(seedFile));
  const app = createReferenceApp({ ...appOptions, store });
  const listening = await listen(app, { port, host, closeTimeoutMs, idleGraceMs, requestTimeoutMs, ...(signals ? { signals, onSignal, onClosed, onCloseError } : {}) });
  return { url: `${listening.origin}/v1`, close: listening.close, app, store, server: listening.server };
}

/**
 * The start-up lines naming each application the store holds, with its demo credentials:
 * the store keeps only digests, so the clear values come from the demo seed (public demo
 * values; no other seed's credentials are ever printed).
 */
async function demoCredentials(store: Store, demoSeed: Seed): Promise<string[]> {
  const clear = new Map(demoSeed.applications.map((application) => [application.id, application.credentials]));
  return (await store.applications()).flatMap((application) =>
    (clear.get(application.id) ?? []).flatMap((credential) =>
      "api_key" in credential && "api_secret" in credential
        ? [`  ${application.name} (${application.id}): API key ${credential.api_key}  API secret ${credential.api_secret}`]
        : [],
    ),
  );
}

/**
 * The app's limits and checks for `config` (its limits' counters in the database when there is
 * one): what `npm start` and `authsvc-api serve` run with, and what the tests of each
 * documented configuration start (test/server/document-configurations.test.ts).
 */
export function protectionsOf(
  config: ServerConfig,
  database?: Pick<OpenedDatabase, "rateLimitStore" | "failedAuthStore">,
): Pick<ReferenceAppOptions, "rateLimit" | "failedAuthLimit" | "concurrencyLimit" | "trustProxy" | "validateResponses" | "cors"> {
  return {
    rateLimit: config.rateLimit && { ...config.rateLimit, store: database?.rateLimitStore },
    failedAuthLimit: config.failedAuthLimit && { ...config.failedAuthLimit, store: database?.failedAuthStore },
    concurrencyLimit: config.concurrencyLimit,
    trustProxy: config.trustProxy,
    validateResponses: config.validateResponses,
    cors: config.cors,
  };
}

/** Starts the reference server with `config` and prints its URL; rejects when it cannot start. */
async function startFromConfig(config: ServerConfig): Promise<void> {
  const { seedFile } = config;
  const logger = createLogger(config.logLevel);
  const keySource = useEmailAuthKey(config.emailAuthKey);

  let database: OpenedDatabase | undefined;
  // Loaded only with a database, so the in-memory server needs no `pg`.
  if (config.database) {
    // Every process on a database must seal with the same e-mail auth key: refused without
    // EMAIL_AUTH_KEY, or with one other than the database's (server/store/postgres/email-key.ts).
    const { checkEmailAuthKey, requireSharedKey } = await import("./store/postgres/email-key.js");
    requireSharedKey();
    database = await (await import("./store/postgres/open.js")).openDatabase(config.database.url, {
      max: config.database.poolMax,
      connectionTimeoutMillis: config.database.poolWaitMs,
      statementTimeoutMs: config.database.statementTimeoutMs,
    });
    await checkEmailAuthKey(database.store.pool, database.where);
  }
  const seed = loadSeed(database ? undefined : seedFile);
  // SIGTERM/SIGINT drain through the same `listen` a service gets (server/contract-layer/listen.ts);
  // its listeners exist before the port opens, so a client that signals as soon as it sees
  // the URL printed gets a drain, not a kill.
  const running = await startServer({
    signals: ["SIGTERM", "SIGINT"],
    onSignal: (signal) => logger.info({ signal }, "shutting down: finishing in-flight requests"),
    onClosed: async () => {
      await database?.store.close();
      logger.info("server closed");
      logger.flush();
    },
    onCloseError: (error) => logger.error({ err: error }, "shutdown failed"),
    store: database?.store ?? createStore(seed),
    logger,
    port: config.port,
    host: config.host,
    ...protectionsOf(config, database),
  });

  const lines = [
    `Reference server listening on ${running.url}`,
    database ? `Store: PostgreSQL at ${database.where} (DATABASE_URL)` : `Seed: ${seedFile ?? `demo data (${demoSeedFile})`}`,
    keySource === "environment"
      ? "E-mail auth encryption key: from EMAIL_AUTH_KEY"
      : "E-mail auth encryption key: random per process (set EMAIL_AUTH_KEY, 64 hex characters, to keep tokens across restarts)",
  ];
  if (database && (await running.store.applications()).length === 0) lines.push("The database holds no application yet: npm run db:seed loads the demo data.");
  else if (database || seedFile === undefined || seedFile === demoSeedFile) lines.push("Demo credentials:", ...(await demoCredentials(running.store, seed)));
  console.log(lines.join("\n"));
  logger.info({ url: running.url, emailAuthKey: keySource }, "server started");
}

/**
 * Reads the configuration and starts the server, for an entry point: a bad variable, a bad
 * seed (the message names the path), a port in use or a database out of reach is one line on
 * stderr and 1; 0 once it listens (it then runs until a signal).
 */
export async function runReferenceServer(config: () => ServerConfig): Promise<number> {
  try {
    await startFromConfig(config());
    return 0;
  } catch (error) {
    console.error(`Cannot start the reference server: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
