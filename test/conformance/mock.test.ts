// The conformance suite against the mock: a stateless target, so the state checks are
// skipped (and counted), and 404s are asked for with `Prefer: code=404`.
import { exampleFixtures } from "../../conformance/calls.js";
import { startMock } from "../../mock/index.js";
import { conformanceSuite } from "./vitest-suite.js";

// Prism checks only that credentials are present; any values do. It answers the documented
// examples whatever the id, so the examples' ids are its records.
conformanceSuite("mock", async () => {
  const mock = await startMock();
  return {
    target: { name: "mock", baseUrl: mock.url, apiKey: "ak_any", apiSecret: "as_any", stateful: false, fixtures: exampleFixtures() },
    close: mock.close,
  };
});
