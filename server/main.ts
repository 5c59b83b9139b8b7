// The entry point (`npm start`): the reference server with the demo data, or SEED_FILE's.
// Environment: PORT (3000), HOST (127.0.0.1), SEED_FILE, LOG_LEVEL (info), EMAIL_AUTH_KEY,
// RATE_LIMIT (requests per window per API key, 600; `off` disables), RATE_LIMIT_WINDOW_MS
// (60000). SIGTERM/SIGINT stop accepting connections, finish in-flight requests, exit 0.
import { describeKeySource } from "./crypto/email-auth.js";
import { createLogger } from "./http/logging.js";
import { defaultRateLimit, type RateLimitOptions } from "./http/rate-limit.js";
import { startServer } from "./listen.js";
import { demoSeedFile, loadSeed } from "./seed/load.js";
import { createStore } from "./store/index.js";
import type { Seed } from "./seed/types.js";
import type { LevelWithSilent } from "pino";

function integerEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

function rateLimitFromEnv(): RateLimitOptions | false {
  if (/^(off|false|0)$/i.test(process.env.RATE_LIMIT ?? "")) return false;
  return {
    limit: integerEnv("RATE_LIMIT", defaultRateLimit.limit),
    windowMs: integerEnv("RATE_LIMIT_WINDOW_MS", defaultRateLimit.windowMs),
  };
}

/** The demo seed's credentials are public demo values; no other seed's are ever printed. */
function demoCredentials(seed: Seed): string[] {
  return seed.applications.flatMap((application) =>
    application.credentials.flatMap((credential) =>
      "api_key" in credential && "api_secret" in credential
        ? [`  ${application.name} (${application.id}): API key ${credential.api_key}  API secret ${credential.api_secret}`]
        : [],
    ),
  );
}

async function main(): Promise<void> {
  const seedFile = process.env.SEED_FILE || undefined;
  const logger = createLogger({ level: (process.env.LOG_LEVEL as LevelWithSilent | undefined) || "info" });
  const seed = loadSeed(seedFile);
  const keySource = describeKeySource();
  const running = await startServer({
    store: createStore(seed),
    logger,
    port: integerEnv("PORT", 3000),
    host: process.env.HOST || "127.0.0.1",
    rateLimit: rateLimitFromEnv(),
    validateResponses: process.env.VALIDATE_RESPONSES !== "false",
  });

  const lines = [
    `Reference server listening on ${running.url}`,
    `Seed: ${seedFile ?? `demo data (${demoSeedFile})`}`,
    keySource === "environment"
      ? "E-mail auth encryption key: from EMAIL_AUTH_KEY"
      : "E-mail auth encryption key: random per process (set EMAIL_AUTH_KEY, 64 hex characters, to keep tokens across restarts)",
  ];
  if (seedFile === undefined || seedFile === demoSeedFile) lines.push("Demo credentials:", ...demoCredentials(seed));
  console.log(lines.join("\n"));
  logger.info({ url: running.url, emailAuthKey: keySource }, "server started");

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    try {
      await running.close();
      logger.info("server closed");
      logger.flush();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error: unknown) => {
  // A bad seed (the message names the path), a bad variable, or a port in use.
  console.error(`Cannot start the reference server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
