// The document holds in every configuration the docs name: the reference server by default,
// with RATE_LIMIT=off (what testers are told to use), with FAILED_AUTH_LIMIT=off, on
// PostgreSQL (DATABASE_URL: the store and the limits' counters in the database), and the
// mock. Each gets the same requests: every operation's success, its 401 without credentials,
// its 400 for an unknown query parameter, its 404 for an unknown id and its 400 for a body
// that is not JSON where it has them; every answer must be the expected status and valid
// against the document: a documented status, its media type and schema, and every header it
// marks required (test/support/document.ts, responseViolations). The servers are built from
// the environment through server/config.ts, as `npm start` builds them. In this directory a
// file runs in a fresh process with a PostgreSQL cluster of its own (skipped, with the reason,
// where PostgreSQL cannot run, and in the inner loop unless TEST_POSTGRES=on).
import { afterAll, describe, expect, it } from "vitest";
import { startMock } from "../../mock/index.js";
import { serverConfigFromEnv, type Environment } from "../../server/config.js";
import { protectionsOf } from "../../server/reference-server.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import { openDatabase } from "../../server/store/postgres/open.js";
import { unavailable, useDatabase } from "../postgres/database.js";
import { appA } from "../support/demo.js";
import { responseViolations } from "../support/document.js";
import { credentialsFor, hasId, operationIds, validRequest } from "../support/requests.js";
import { startServer } from "../support/server.js";
import { operations, type OperationId } from "../../generated/operations.js";

interface Running {
  url: string;
  close(): Promise<void>;
}

interface Configuration {
  name: string;
  skipped?: string;
  start(): Promise<Running>;
  /** Headers that ask for the 404 of an unknown id: the mock echoes any id with its example unless asked (docs/mock.md). */
  notFound?: Record<string, string>;
}

const db = useDatabase();

/** The reference server as `npm start` builds it from `env`, in memory unless `database`. */
async function referenceServer(env: Environment, database = false): Promise<Running> {
  const config = serverConfigFromEnv(env);
  if (!database) return startServer({ store: createStore(loadSeed()), ...protectionsOf(config), idleGraceMs: 0 });
  await db.reset(loadSeed());
  const opened = await openDatabase(db.url);
  const running = await startServer({ store: opened.store, ...protectionsOf(config, opened), idleGraceMs: 0 });
  return {
    url: running.url,
    close: async () => {
      await running.close();
      await opened.store.close();
    },
  };
}

const configurations: Configuration[] = [
  { name: "default", start: () => referenceServer({}) },
  { name: "RATE_LIMIT=off", start: () => referenceServer({ RATE_LIMIT: "off" }) },
  { name: "FAILED_AUTH_LIMIT=off", start: () => referenceServer({ FAILED_AUTH_LIMIT: "off" }) },
  { name: "PostgreSQL (DATABASE_URL)", skipped: unavailable, start: () => referenceServer({}, true) },
  { name: "mock", start: () => startMock(), notFound: { prefer: "code=404" } },
];

interface Case {
  operationId: OperationId;
  what: string;
  status: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The representative requests: per operation its success and the errors every deployment answers alike. */
function cases(notFound: Record<string, string> = {}): Case[] {
  return operationIds.flatMap((operationId): Case[] => {
    const valid = validRequest(operationId);
    const credentials = credentialsFor(operationId, appA);
    const body = valid.body === undefined ? undefined : JSON.stringify(valid.body);
    const json: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
    const base = { operationId, method: valid.method, path: valid.path, body };
    const list: Case[] = [
      { ...base, what: "success", status: operations[operationId].successStatus, headers: { ...credentials, ...json } },
      { ...base, what: "no credentials", status: 401, headers: json },
      { ...base, what: "an unknown query parameter", status: 400, path: `${valid.path}?no_such_parameter=1`, headers: { ...credentials, ...json } },
    ];
    if (hasId(operationId))
      list.push({
        ...base,
        what: "an unknown id",
        status: 404,
        path: operations[operationId].path.replace("{id}", "no_such_id"),
        headers: { ...credentials, ...json, ...notFound },
      });
    if (body !== undefined) list.push({ ...base, what: "a body that is not JSON", status: 400, body: "{", headers: { ...credentials, ...json } });
    return list;
  });
}

const counts: string[] = [];
afterAll(() => {
  // The figures for the record: answers checked per configuration.
  console.log(`document oracle, answers valid per configuration: ${counts.join("; ")}`);
});

describe.each(
  configurations.map(
    (configuration) => [configuration.skipped === undefined ? configuration.name : `${configuration.name}: skipped, ${configuration.skipped}`, configuration] as const,
  ),
)("every answer valid against the document: %s", (_, configuration) => {
  it.skipIf(configuration.skipped !== undefined)("each operation's success and errors, required headers included", async () => {
    const running = await configuration.start();
    try {
      const violations: string[] = [];
      let answers = 0;
      let invalid = 0;
      for (const request of cases(configuration.notFound)) {
        const response = await fetch(`${running.url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
        const text = await response.text();
        const label = `${request.operationId} ${request.what}`;
        const body = text === "" ? undefined : JSON.parse(text);
        const problems = responseViolations(request.operationId, response.status, response.headers.get("content-type"), body, response.headers);
        if (response.status !== request.status) problems.unshift(`${response.status} (expected ${request.status}) ${text.slice(0, 200)}`);
        answers++;
        if (problems.length > 0) invalid++;
        violations.push(...problems.map((problem) => `${label}: ${problem}`));
      }
      counts.push(`${configuration.name} ${answers - invalid}/${answers}`);
      expect(violations).toEqual([]);
      expect(answers).toBeGreaterThanOrEqual(operationIds.length * 3);
    } finally {
      await running.close();
    }
  });
});
