// The conformance suite against the reference server with the demo seed: a stateful target,
// so every check runs, the isolation checks with application B's key.
import { startServer } from "../../server/listen.js";
import { appA, appB } from "../support/demo.js";
import { conformanceSuite } from "./vitest-suite.js";

conformanceSuite("server", async () => {
  // The suite sends more requests per key than the default limit allows in a minute.
  const server = await startServer({ rateLimit: false });
  return {
    target: { name: "server", baseUrl: server.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret, stateful: true, otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret } },
    close: server.close,
  };
});
