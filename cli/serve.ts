// `authsvc-api serve`: the stateful reference server of `npm start` from an installed
// package, with the demo data (or a seed file). The flags override the environment's
// configuration (server/config.ts), so `serve` and `npm start` are the same program with the
// same defaults.
import { resolve } from "node:path";
import { command, parseFlags, portFlag, UsageError } from "./args.js";

const usage = `usage: authsvc-api serve [--port N] [--host H] [--seed FILE]

Runs the reference server (in memory, validating every request and response) under /v1,
e.g. http://127.0.0.1:3000/v1, until Ctrl-C. It prints the demo credentials at start.

  --port  port to listen on (default 3000; 0 picks a free one)
  --host  interface to listen on (default 127.0.0.1)
  --seed  a seed file (JSON, the shape of the package's demo data) instead of the demo data

Environment, as for npm start: CORS_ORIGINS (origins allowed to call it from a browser;
default http://localhost:* and http://127.0.0.1:*), RATE_LIMIT, RATE_LIMIT_WINDOW_MS,
LOG_LEVEL, EMAIL_AUTH_KEY. Exit code: 1 when it cannot start, 2 on bad flags.`;

export function run(argv: string[]): Promise<number> {
  return command("serve", usage, async () => {
    const flags = parseFlags(argv, { port: { type: "string" }, host: { type: "string" }, seed: { type: "string" } });
    if (flags === "help") return "help";
    const port = portFlag(flags.port);
    if (flags.seed === "") throw new UsageError("--seed needs a file");
    // Loaded once the flags are known good: --help and a bad flag answer at once.
    const [{ serverConfigFromEnv }, { runReferenceServer }] = await Promise.all([import("../server/config.js"), import("../server/reference-server.js")]);
    // The package runs the in-memory store only: PostgreSQL (and its driver) is the repository's.
    // PORT is not read when --port replaces it, so a stray value cannot stop `serve --port 0`.
    return runReferenceServer(() => ({
      ...serverConfigFromEnv({ ...process.env, DATABASE_URL: undefined, ...(port === undefined ? {} : { PORT: undefined }) }),
      ...(port === undefined ? {} : { port }),
      ...(flags.host ? { host: flags.host } : {}),
      ...(flags.seed === undefined ? {} : { seedFile: resolve(flags.seed) }),
    }));
  });
}
