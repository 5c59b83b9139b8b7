// The conformance suite against the mock: a stateless target, so the state checks are
// skipped (and counted), and 404s are asked for with `Prefer: code=404`.
import { startMock } from "../../mock/index.js";
import { conformanceSuite } from "./vitest-suite.js";

// Prism checks only that credentials are present; any values do.
conformanceSuite("mock", async () => {
  const mock = await startMock();
  return {
    target: { name: "mock", baseUrl: mock.url, apiKey: "ak_any", apiSecret: "as_any", stateful: false },
    close: mock.close,
  };
});
