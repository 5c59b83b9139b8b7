// The whole suite (`npm test`). The fast inner loop (`npm run test:unit`) is a subset of it,
// chosen by directory in test/vitest.unit.config.ts.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Inside the repo the package's own name means the client source, as tsconfig `paths`
    // says for tsc and tsx; the package `exports` point at dist/, which only a build makes.
    alias: { "@authsvc/app-api-contract": fileURLToPath(new URL("../client/index.ts", import.meta.url)) },
  },
  test: {
    root: ".",
    include: ["test/**/*.test.ts"],
    // The consumer project's own test runs inside its temporary copy (test/package/consumer.test.ts).
    exclude: ["**/node_modules/**", "test/package/consumer/**"],
    // Almost every suite reads the document, most through generated/openapi.json read from
    // disk (not an import vitest can follow): a change there, or in its source, reruns the
    // whole selection under `--changed` and in watch mode.
    forceRerunTriggers: ["**/package.json/**", "**/vitest.*config.*/**", "**/openapi/**", "**/generated/**"],
    // Servers start on free ports per suite; two cores, so keep the pool small.
    // One npm pack and one install per consumer project per run, shared by the package tests.
    globalSetup: ["test/package/shared-install.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "tsconfig.json",
    },
  },
});
