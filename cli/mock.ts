// `authsvc-api mock`: the mock of `npm run mock` from an installed package, serving the
// documented examples under /v1 until Ctrl-C, one log line per request on stdout.
import { command, parseFlags, portFlag } from "./args.js";

const usage = `usage: authsvc-api mock [--port N] [--host H] [--dynamic]

Serves the API's mock (Prism over the packaged document) under /v1, e.g.
http://127.0.0.1:4010/v1/widgets/wgt_5a3c8e1f7b92, until Ctrl-C.

  --port     port to listen on (default 4010; 0 picks a free one)
  --host     interface to listen on (default 127.0.0.1)
  --dynamic  answer generated data instead of the documented examples

It checks requests as the reference server does (the demo keys only, e.g.
Authorization: Bearer ak_live_acme_4f9e2b7c1d8a6e3f; the server's validation problems) and
writes one JSON log line per request. Any origin may call it (CORS *, no credentials).
Per request: Prefer: code=404 | example=<name> | dynamic=true picks another documented
answer. Exit code: 1 when it cannot listen, 2 on bad flags.`;

export function run(argv: string[]): Promise<number> {
  return command("mock", usage, async () => {
    const flags = parseFlags(argv, { port: { type: "string" }, host: { type: "string" }, dynamic: { type: "boolean" } });
    if (flags === "help") return "help";
    const port = portFlag(flags.port) ?? 4010;
    // Prism loads only once the flags are known good: --help and a bad flag answer at once.
    const { runMock } = await import("../mock/run.js");
    return runMock({ port, host: flags.host || "127.0.0.1", dynamic: flags.dynamic ?? false, logLevel: "info" });
  });
}
