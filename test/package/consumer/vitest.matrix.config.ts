// The frontend test matrix of the consumer project (test/package/frontend-matrix.test.ts writes
// matrix/'s suites): every file under vitest's node, jsdom and happy-dom environments, the API
// on another origin than the page's and (jsdom, happy-dom) on its own, the DOM files
// (*.dom.test.ts) in the two DOM environments only. MSW 3, the project's `msw`; with
// MSW_MAJOR=2 the `msw2` alias instead, for the mock package's own imports of msw too (inlined).
import { defineConfig } from "vitest/config";

const msw2 = process.env.MSW_MAJOR === "2";
const runs = [
  { name: "node", environment: "node", origin: "cross" },
  { name: "jsdom, same origin", environment: "jsdom", origin: "same" },
  { name: "jsdom, cross-origin", environment: "jsdom", origin: "cross" },
  { name: "happy-dom, same origin", environment: "happy-dom", origin: "same" },
  { name: "happy-dom, cross-origin", environment: "happy-dom", origin: "cross" },
] as const;

export default defineConfig({
  ...(msw2
    ? {
        resolve: {
          alias: [
            { find: /^msw$/, replacement: "msw2" },
            { find: /^msw\/node$/, replacement: "msw2/node" },
          ],
        },
      }
    : {}),
  test: {
    ...(msw2 ? { server: { deps: { inline: [/@authsvc\/app-api-mock/] } } } : {}),
    reporters: ["default", "./matrix-reporter.ts"],
    projects: runs.map(({ name, environment, origin }) => ({
      extends: true,
      test: {
        name,
        environment,
        include: ["matrix/*.test.ts"],
        exclude: environment === "node" ? ["matrix/*.dom.test.ts"] : [],
        env: { API_ORIGIN: origin, MSW_MAJOR: msw2 ? "2" : "3" },
      },
    })),
  },
});
