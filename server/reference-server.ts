// The reference server as a program: the demo data (or a seed file, or PostgreSQL) behind the
// contract layer with every protection, started from a configuration (server/config.ts) by
// `npm start` (server/main.ts, from the environment) and `authsvc-api serve` (cli/serve.ts,
// from its flags), so both are the same program with the same defaults. SIGTERM/SIGINT stop
// accepting connections, finish in-flight requests, and exit 0.
import type { AppOptions } from "./reference-app.js";
import type { ServerConfig } from "./config.js";
import { useEmailAuthKey } from "./crypto/email-auth.js";
import type { Store } from "./domain/index.js";
import { createLogger } from "./http/logging.js";
import { startServer } from "./start-server.js";
import { demoSeedFile, loadSeed } from "./seed/load.js";
import type { Seed } from "./seed/types.js";
import { createStore } from "./store/memory.js";
import type { OpenedDatabase } from "./store/postgres/open.js";

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
): Pick<AppOptions, "rateLimit" | "failedAuthLimit" | "concurrencyLimit" | "trustProxy" | "validateResponses" | "cors"> {
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
export async function startReferenceServer(config: ServerConfig): Promise<void> {
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
  // SIGTERM/SIGINT drain through the same `listen` a service gets (server/express/listen.ts);
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
    await startReferenceServer(config());
    return 0;
  } catch (error) {
    console.error(`Cannot start the reference server: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
