// Portman (@apideck/portman, its CLI) with the shipped configuration (generated/peers/
// portman-config.json) writes a collection from the document; newman runs it against the
// reference server (in process, demo data) with the demo keys: every request passes every
// contract test Portman wrote (status, content type, JSON body, schema, documented
// headers). Known-bad twin: the same configuration without its `overwrites`: Postman's
// `apikey` auth sends only `X-Api-Key`, and POST /notifications answers 401.
// Portman runs as a child process: this file is outside the inner loop's directories.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import type { Node } from "../support/document.js";
import { bin, root, run } from "../tooling/run.js";

const newman = createRequire(import.meta.url)("newman") as { run(options: Node, done: (error: Error | null, summary: Node) => void): void };
const scratch = mkdtempSync(join(tmpdir(), "portman-"));
const config: Node = JSON.parse(readFileSync(join(root, "generated/peers/portman-config.json"), "utf8"));
/** The demo keys, as the shipped local environment gives them. */
const demo: Node = Object.fromEntries(
  JSON.parse(readFileSync(join(root, "generated/postman/local-server.postman_environment.json"), "utf8")).values.map((v: Node) => [v.key, v.value]),
);

interface Outcome {
  name: string;
  method: string;
  code?: number;
  failed: string[];
}

/** Writes the collection with Portman from `portmanConfig`, then runs it with newman against `baseUrl`. */
async function portman(label: string, portmanConfig: Node, baseUrl: string): Promise<{ written: string; outcomes: Outcome[]; assertions: Node }> {
  const configFile = join(scratch, `${label}.json`);
  const output = join(scratch, `${label}.postman.json`);
  writeFileSync(configFile, JSON.stringify(portmanConfig));
  // In the scratch folder: Portman writes its working files under ./tmp.
  const written = await run(bin("portman"), ["-l", join(root, "generated/openapi.json"), "-c", configFile, "-o", output], scratch);
  const collection = JSON.parse(readFileSync(output, "utf8"));
  const envVar = [
    { key: "baseUrl", value: baseUrl },
    { key: "bearerToken", value: demo.apiKey },
    { key: "apiKey", value: demo.apiKey },
    { key: "apiSecret", value: demo.apiSecret },
  ];
  return new Promise((resolve, reject) =>
    newman.run({ collection, envVar, reporters: [] }, (error, summary) => {
      if (error) return reject(error);
      const outcomes = summary.run.executions.map((e: Node) => ({
        name: e.item.name,
        method: e.request.method,
        code: e.response?.code,
        failed: (e.assertions ?? []).filter((a: Node) => a.error).map((a: Node) => a.error.message),
      }));
      resolve({ written: written.output, outcomes, assertions: summary.run.stats.assertions });
    }),
  );
}

let server: RunningServer;
let shipped: Awaited<ReturnType<typeof portman>>;
let withoutOverwrites: Awaited<ReturnType<typeof portman>>;

beforeAll(async () => {
  server = await startServer({ closeTimeoutMs: 0 });
  shipped = await portman("shipped", config, server.url);
  const { overwrites: _, ...bare } = config;
  withoutOverwrites = await portman("bare", bare, server.url);
}, 240_000);

afterAll(async () => {
  await server?.close();
});

describe(`Portman ${JSON.parse(readFileSync(join(root, "node_modules/@apideck/portman/package.json"), "utf8")).version} with generated/peers/portman-config.json`, () => {
  it("writes a collection whose every contract test passes against the reference server", () => {
    const failed = shipped.outcomes.filter((o) => o.failed.length > 0);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(shipped.outcomes.length).toBeGreaterThanOrEqual(9);
    expect(shipped.assertions.failed).toBe(0);
    console.log(`portman: ${shipped.outcomes.length} requests, ${shipped.assertions.total} assertions, ${shipped.assertions.failed} failed`);
  });

  it("without the configuration's overwrites, POST /notifications is refused 401 (Postman's apikey auth sends one header)", () => {
    const notification = withoutOverwrites.outcomes.find((o) => o.method === "POST" && /notification/i.test(o.name));
    expect(notification?.code).toBe(401);
    expect(notification?.failed.length).toBeGreaterThan(0);
    console.log(
      `portman without overwrites: ${withoutOverwrites.assertions.total - withoutOverwrites.assertions.failed}/${withoutOverwrites.assertions.total} assertions pass`,
    );
  });
});
