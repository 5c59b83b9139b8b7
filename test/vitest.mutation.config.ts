// The suites `npm run mutation` (stryker.config.mjs) runs against each mutant of server/rules/,
// client/ and server/middleware/: the rules through the store and handler suites, the client and
// the HTTP layer through their own (in-process servers on free ports).
// In-memory store only, handlers called directly (the HTTP suites add nothing a rule's mutant
// could fail), so a mutant's run takes seconds; timeouts are generous for a loaded machine.
// Not the browser suite: the client it bundles runs in Chromium, where Stryker's switch of the
// active mutant does not reach, so it cannot fail a mutant and only adds a browser launch.
import { defineConfig } from "vitest/config";
import unit from "./vitest.unit.config.js";

export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    include: [
      "test/rules/**/*.test.ts",
      "test/stores/*.test.ts",
      "test/server/operations/**/*.test.ts",
      "test/client/**/*.test.ts",
      "test/server/middleware/**/*.test.ts",
      // Not test/server/config.test.ts: its check that only server/config.ts reads
      // process.env reads the sources, which in Stryker's sandbox are instrumented (they read
      // the active mutant from process.env), so Stryker's first run failed; and applied by
      // hand, none of the TRUST_PROXY mutants fails it (test/server/middleware/trust-proxy.test.ts
      // pins them).
    ],
    exclude: [...(unit.test?.exclude ?? []), "test/server/operations/http.test.ts", "test/client/browser.test.ts", "test/server/middleware/entry-point.test.ts"],
    env: { TEST_POSTGRES: "off" },
    // Generous for the store suites on a loaded machine; a client run sets it low
    // (MUTATION_TEST_TIMEOUT_MS=8000) so a mutant that leaves a retry or timeout wait hanging
    // fails its test instead of waiting out Stryker's timeout and restarting the runner.
    testTimeout: Number(process.env.MUTATION_TEST_TIMEOUT_MS) || 120_000,
    // Each test file in a fresh module graph, so a static mutant (evaluated at import) is seen.
    // MUTATION_ISOLATE=off shares one graph across files: 5× faster for the HTTP layer, whose
    // files each load the document and build its validators; only with `--ignoreStatic`, as
    // a static mutant would then go unseen and be counted as surviving.
    isolate: process.env.MUTATION_ISOLATE !== "off",
  },
});
