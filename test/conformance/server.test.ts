// The conformance suite against the reference server with the demo seed, on each store
// (in memory and PostgreSQL, test/support/stores.ts): a stateful target, so every check
// runs, the isolation checks with application B's key, a deleting operation's checks on
// spare records. The fixtures name application A's demo records (cli.test.ts runs the
// command against a seed of other ids).
import { exampleFixtures } from "../../conformance/calls.js";
import { startServer } from "../support/server.js";
import { loadSeed } from "../../server/seed/load.js";
import { appA, appB, recordsOfA } from "../support/demo.js";
import { forEachStore } from "../support/stores.js";
import { conformanceSuite } from "./vitest-suite.js";

forEachStore("reference server", (stores) => {
  conformanceSuite(`server on the ${stores.name} store`, async () => {
    // The suite sends more requests per key than the default limit allows in a minute.
    const seed = loadSeed();
    // Spare webhooks of A (copies of its first under new ids) for the checks of an operation
    // that deletes webhooks: each uses one up, after every other check (docs/conformance.md).
    const spares = ["whk_spare000001", "whk_spare000002", "whk_spare000003"];
    const ofA = seed.applications.find((app) => app.id === appA.applicationId)!;
    ofA.webhooks.push(...spares.map((id) => ({ ...structuredClone(ofA.webhooks[0]!), id })));
    const server = await startServer({ rateLimit: false, failedAuthLimit: false, store: await stores.fresh(seed) });
    const fixtures = {
      ...exampleFixtures(),
      smsProvider: recordsOfA.defaultSmsProvider!,
      otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret },
      disposable: { webhook: spares },
    };
    return {
      target: { name: `server (${stores.name})`, baseUrl: server.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret, stateful: true, fixtures },
      close: server.close,
    };
  });
});
