// The whole suite (`npm test`). The fast inner loop (`npm run test:unit`) is a subset of it,
// chosen by directory in test/vitest.unit.config.ts.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { sharedModuleFiles } from "./vitest.in-process.js";

export default defineConfig({
  resolve: {
    // Inside the repo a package's own name means its source, as tsconfig `paths` says for tsc
    // and tsx; the package `exports` point at dist/, which only a build makes. (The server
    // entry's name is what the serverless recipes of docs/backend.md import, run as written.)
    alias: {
      "@authsvc/app-api-contract": fileURLToPath(new URL("../client/index.ts", import.meta.url)),
      "@authsvc/app-api-server/express": fileURLToPath(new URL("../server/contract-layer/index.ts", import.meta.url)),
    },
  },
  test: {
    root: ".",
    // The consumer project's own test runs inside its temporary copy (test/package/consumer.test.ts).
    exclude: ["**/node_modules/**", "test/package/consumer/**"],
    // What suites read from disk, which vitest cannot follow, stands in for itself here: a
    // schema change rewrites generated/validators.cjs (every request a suite sends runs it),
    // an example change generated/examples.ts (the mock answers them): either reruns every
    // suite under `--changed` and in watch mode. A prose edit changes neither: it reruns the
    // suites that import the document (test/openapi/document.ts). docs/testing.md says so.
    forceRerunTriggers: ["**/package.json/**", "**/vitest.*config.*/**", "**/generated/validators.cjs/**", "**/generated/examples.ts/**"],
    // One npm pack and one install per consumer project per run, shared by the package tests.
    globalSetup: ["test/package/shared-install.ts"],
    // Servers start on free ports per suite; two cores, so keep the pool small.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        // Suites with in-process servers and the in-memory store only: the files of a worker
        // share their modules (express, the validator, the document) instead of importing
        // them afresh, about a second each, as the inner loop does.
        extends: true,
        test: { name: "in-process", include: sharedModuleFiles, isolate: false },
      },
      {
        // The MSW handlers' and the client's tests under msw/node again under MSW 2 (the `msw2`
        // alias, npm:msw@2): the mock package's peer range names both majors, MSW 3 (the
        // repository's `msw`) first. Only this project's imports of `msw` and `msw/node` are rewritten.
        extends: true,
        resolve: {
          alias: [
            { find: /^msw$/, replacement: "msw2" },
            { find: /^msw\/node$/, replacement: "msw2/node" },
          ],
        },
        test: { name: "msw2", include: ["test/msw/**/*.test.ts"], env: { MSW_MAJOR: "2" } },
      },
      {
        // Everything else: child processes, PostgreSQL clusters (one per file), browsers,
        // packed installs and throwaway git repositories, each file in a fresh process.
        extends: true,
        test: {
          name: "isolated",
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "test/package/consumer/**", ...sharedModuleFiles],
          // The type tests (test/types/*.test-d.ts) are not run by vitest's own typecheck: the
          // whole project's tsc (test/types/tsc.test.ts) compiles them, and a failed
          // expectTypeOf or an unused @ts-expect-error is a compile error there.
        },
      },
    ],
  },
});
