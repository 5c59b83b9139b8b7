// The conformance suite against the reference server with the demo seed: a stateful target,
// so every check runs, the isolation checks with application B's key.
import { startServer } from "../../server/listen.js";
import { demoCredentials } from "./demo-credentials.js";
import { conformanceSuite } from "./vitest-suite.js";

conformanceSuite("server", async () => {
  const { a, b } = demoCredentials();
  // The suite sends more requests per key than the default limit allows in a minute.
  const server = await startServer({ rateLimit: false });
  return {
    target: { name: "server", baseUrl: server.url, ...a, stateful: true, otherApplication: b },
    close: server.close,
  };
});
