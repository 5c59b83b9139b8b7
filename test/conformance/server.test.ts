// The conformance suite against the reference server with the demo seed: a stateful target,
// so every check runs, the isolation checks with application B's key. The fixtures name
// application A's demo records (cli.test.ts runs the command against a seed of other ids).
import { exampleFixtures } from "../../conformance/calls.js";
import { startServer } from "../../server/listen.js";
import { appA, appB, recordsOfA } from "../support/demo.js";
import { conformanceSuite } from "./vitest-suite.js";

conformanceSuite("server", async () => {
  // The suite sends more requests per key than the default limit allows in a minute.
  const server = await startServer({ rateLimit: false });
  const fixtures = {
    ...exampleFixtures(),
    smsProvider: recordsOfA.defaultSmsProvider!,
    otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret },
  };
  return {
    target: { name: "server", baseUrl: server.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret, stateful: true, fixtures },
    close: server.close,
  };
});
