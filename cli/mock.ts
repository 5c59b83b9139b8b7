// `authsvc-api mock`: the mock of `npm run mock` from an installed package, serving the
// documented examples under /v1 until Ctrl-C, one log line per request on stdout.
import type { Environment, MockConfig } from "../server/config.js";
import { command, parseFlags, portFlag, UsageError } from "./args.js";

const usage = `usage: authsvc-api mock [--port N] [--host H] [--dynamic] [--pages N] [--rate-limit N|on|off] [--failed-auth-limit N|on|off]

Serves the API's mock (the packaged document's examples) under /v1, e.g.
http://127.0.0.1:4010/v1/widgets/wgt_5a3c8e1f7b92, until Ctrl-C.

  --port               port to listen on (default 4010; 0 picks a free one)
  --host               interface to listen on (default 127.0.0.1)
  --dynamic            answer generated data instead of the documented examples
  --pages              pages every list spans at the limit asked, the last one holding one
                       record (default: the documented records; 3 with --dynamic)
  --rate-limit         requests per window per API key, as the server counts them
                       (default off: the mock is a test double; on = the server's 600)
  --failed-auth-limit  401s per window per client address before 429 (default off; on = 60)

It checks requests as the reference server does (the demo keys only, e.g.
Authorization: Bearer ak_live_acme_4f9e2b7c1d8a6e3f; the server's validation problems) and
writes one JSON log line per request. Any origin may call it (CORS *, no credentials).
Per request: Prefer: code=404 | example=<name> | dynamic=true picks another documented
answer. The URL is printed once every operation's validators are built: the first
request costs what the next ones do. Environment, as for the server: RATE_LIMIT, RATE_LIMIT_WINDOW_MS,
FAILED_AUTH_LIMIT, FAILED_AUTH_LIMIT_WINDOW_MS (a flag wins over its variable).
Exit code: 1 when it cannot start, 2 on bad flags.`;

export function run(argv: string[]): Promise<number> {
  return command("mock", usage, async () => {
    const flags = parseFlags(argv, {
      port: { type: "string" },
      host: { type: "string" },
      dynamic: { type: "boolean" },
      pages: { type: "string" },
      "rate-limit": { type: "string" },
      "failed-auth-limit": { type: "string" },
    });
    if (flags === "help") return "help";
    const port = portFlag(flags.port) ?? 4010;
    if (flags.pages !== undefined && !/^[1-9]\d{0,5}$/.test(flags.pages)) throw new UsageError(`--pages must be a number from 1, got "${flags.pages}"`);
    // The server's parser of these variables (server/config.ts), each flag read as its variable.
    const { mockConfigFromEnv } = await import("../server/config.js");
    const limitFlag = (flag: string, value: string | undefined) => {
      if (value === undefined) return;
      if (value === "") throw new UsageError(`${flag} needs a number, on or off`);
      try {
        mockConfigFromEnv({ [flag === "--rate-limit" ? "RATE_LIMIT" : "FAILED_AUTH_LIMIT"]: value });
      } catch {
        throw new UsageError(`${flag} must be a number, on or off, got "${value}"`);
      }
    };
    limitFlag("--rate-limit", flags["rate-limit"]);
    limitFlag("--failed-auth-limit", flags["failed-auth-limit"]);
    let limits: Pick<MockConfig, "rateLimit" | "failedAuthLimit">;
    try {
      // PORT, HOST, MOCK_DYNAMIC and MOCK_PAGES are `npm run mock`'s: this command takes flags for those.
      const env: Environment = {
        ...process.env,
        PORT: undefined,
        HOST: undefined,
        MOCK_DYNAMIC: undefined,
        MOCK_PAGES: undefined,
        ...(flags["rate-limit"] === undefined ? {} : { RATE_LIMIT: flags["rate-limit"] }),
        ...(flags["failed-auth-limit"] === undefined ? {} : { FAILED_AUTH_LIMIT: flags["failed-auth-limit"] }),
      };
      const { rateLimit, failedAuthLimit } = mockConfigFromEnv(env);
      limits = { rateLimit, failedAuthLimit };
    } catch (error) {
      // A bad RATE_LIMIT_WINDOW_MS, say: the server's message, naming the variable.
      console.error(`Cannot start the mock: ${(error as Error).message}`);
      return 1;
    }
    // The mock's modules load only once the flags are known good: --help and a bad flag answer at once.
    const { runMock } = await import("../mock/run.js");
    return runMock({
      port,
      host: flags.host || "127.0.0.1",
      dynamic: flags.dynamic ?? false,
      ...(flags.pages === undefined ? {} : { pages: Number(flags.pages) }),
      logLevel: "info",
      ...limits,
    });
  });
}
