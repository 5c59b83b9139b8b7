// `authsvc-api serve`: the stateful reference server of `npm start` from an installed
// package, with the demo data (or a seed file). The flags override the environment's
// configuration (server/config.ts), so `serve` and `npm start` are the same program with the
// same defaults.
import { resolve } from "node:path";
import { command, parseFlags, portFlag, UsageError } from "./args.js";

const usage = `usage: authsvc-api serve [--port N] [--host H] [--seed FILE] [--cors-origins LIST]

Runs the reference server (in memory, validating every request and response) under /v1,
e.g. http://127.0.0.1:3000/v1, until Ctrl-C. It prints the demo credentials at start.

  --port          port to listen on (default 3000; 0 picks a free one)
  --host          interface to listen on (default 127.0.0.1)
  --seed          a seed file (JSON, the shape of the package's demo data) instead of the demo data
  --cors-origins  origins a browser may call it from: a comma list (e.g.
                  http://192.168.1.20:5173,https://dev.example.test), * or off
                  (default http://localhost:* and http://127.0.0.1:*, any port)

Environment, as for npm start: CORS_ORIGINS (what --cors-origins sets; the flag wins),
RATE_LIMIT, RATE_LIMIT_WINDOW_MS, LOG_LEVEL, EMAIL_AUTH_KEY. Exit code: 1 when it cannot
start, 2 on bad flags.`;

export function run(argv: string[]): Promise<number> {
  return command("serve", usage, async () => {
    const flags = parseFlags(argv, { port: { type: "string" }, host: { type: "string" }, seed: { type: "string" }, "cors-origins": { type: "string" } });
    if (flags === "help") return "help";
    const port = portFlag(flags.port);
    if (flags.seed === "") throw new UsageError("--seed needs a file");
    const corsOrigins = flags["cors-origins"];
    if (corsOrigins === "") throw new UsageError("--cors-origins needs a comma list of origins, * or off");
    // The variable's parser, so the flag takes exactly what CORS_ORIGINS takes.
    const { corsFromEnv } = await import("../server/middleware/cors.js");
    let cors: ReturnType<typeof corsFromEnv> | undefined;
    try {
      cors = corsOrigins === undefined ? undefined : corsFromEnv(corsOrigins);
    } catch (error) {
      throw new UsageError(`--cors-origins: ${(error as Error).message.replace(/^CORS_ORIGINS holds/, "holds")}`);
    }
    // The server loads once the flags are known good: --help and a bad flag answer at once.
    const [{ serverConfigFromEnv }, { runReferenceServer }] = await Promise.all([import("../server/config.js"), import("../server/reference-server.js")]);
    // The package runs the in-memory store only: PostgreSQL (and its driver) is the repository's.
    // PORT and CORS_ORIGINS are not read when a flag replaces them, so a stray value cannot stop `serve --port 0`.
    return runReferenceServer(() => ({
      ...serverConfigFromEnv({
        ...process.env,
        DATABASE_URL: undefined,
        ...(port === undefined ? {} : { PORT: undefined }),
        ...(cors === undefined ? {} : { CORS_ORIGINS: undefined }),
      }),
      ...(port === undefined ? {} : { port }),
      ...(flags.host ? { host: flags.host } : {}),
      ...(flags.seed === undefined ? {} : { seedFile: resolve(flags.seed) }),
      ...(cors === undefined ? {} : { cors }),
    }));
  });
}
