// The conformance suite against the mock: a stateless target, so the state checks are
// skipped (and counted), and 404s are asked for with `Prefer: code=404`.
import { exampleFixtures } from "../../conformance/calls.js";
import { startMock } from "../../mock/index.js";
import { conformanceSuite } from "./vitest-suite.js";
import { appA } from "../support/demo.js";

// The mock takes the demo seed's credentials, as the server does. It answers the documented
// examples whatever the id, so the examples' ids are its records.
conformanceSuite(
  "mock",
  async () => {
    const mock = await startMock({ failedAuthLimit: false });
    return {
      target: { name: "mock", baseUrl: mock.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret, stateful: false, fixtures: exampleFixtures() },
      close: mock.close,
    };
  },
  // The state checks, and a deleting operation's, which use up records the mock is given none of
  // (docs/conformance.md, `disposable`): any other skip fails.
  (check) => check.statefulBecause !== undefined || check.consumes !== undefined,
);
