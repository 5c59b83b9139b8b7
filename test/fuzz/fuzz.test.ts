// Property-based fuzzing from the document: for each operation of the generated table, valid requests
// (parameters and bodies generated from its schemas) and mutated ones go to the reference
// server; every answer must be a documented status with a body on that status's schema, the
// right media type and every header the document requires for it (on its schema), never a 5xx, and the server must still answer afterwards.
// Reproduce a run with FUZZ_SEED=<the printed seed>; FUZZ_RUNS sets requests per operation.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server.js";
import { appA } from "../support/demo.js";
import { exampleId, responseViolations } from "../support/document.js";
import { captureLogs, leaks } from "../support/logs.js";
import { credentialsFor, operationIds } from "../support/requests.js";
import { mutatedRequest, secretMark, validRequest, type FuzzRequest } from "./requests.js";
import { send } from "./send.js";

const seed = Number(process.env.FUZZ_SEED ?? 20260131);
const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 240);

let server: RunningServer;
const logs = captureLogs();
/** Every credential and e-mail auth value the run submitted, for the log scan. */
const submitted = new Set<string>();
const answers: string[] = [];

function collectSecrets(request: FuzzRequest): void {
  for (const [name, value] of Object.entries(request.headers)) if (name !== "content-type") submitted.add(value.replace(/^Bearer /, ""));
  const auth = (request.body as { auth?: unknown } | undefined)?.auth;
  // Only the marked secrets: an arbitrary string ("toString", "    ") may turn up anywhere by chance.
  if (auth && typeof auth === "object") for (const value of Object.values(auth)) if (typeof value === "string" && value.startsWith(secretMark)) submitted.add(value);
}
/** operationId → status → count, printed at the end so a run shows what it exercised. */
const seen: Record<string, Record<string, number>> = {};

beforeAll(async () => {
  console.log(`fuzz: seed ${seed} (FUZZ_SEED=${seed} reproduces), ${runsPerOperation} requests per operation`);
  server = await startServer({ rateLimit: false, failedAuthLimit: false, logger: logs.logger });
});

afterAll(async () => {
  console.log("fuzz statuses per operation:", JSON.stringify(seen));
  await server?.close();
});

describe("fuzzing every operation from the document", () => {
  operationIds.forEach((id, index) => {
    it(`${id}: every answer is documented, on schema with its required headers, never 5xx`, async () => {
      const counts: Record<string, number> = (seen[id] = {});
      const valid = { sent: 0, succeeded: 0 };
      const requests = fc.oneof(validRequest(id), mutatedRequest(id));
      await fc.assert(
        fc.asyncProperty(requests, async (request: FuzzRequest) => {
          collectSecrets(request);
          const answer = await send(server.url, request);
          answers.push(answer.text);
          counts[answer.status] = (counts[answer.status] ?? 0) + 1;
          if (request.kind === "valid") {
            valid.sent++;
            if (answer.status >= 200 && answer.status < 300) valid.succeeded++;
          }
          const violations = responseViolations(id, answer.status, answer.contentType, answer.body, answer.headers);
          if (answer.status >= 500) violations.push(`server error ${answer.status}: ${answer.text.slice(0, 300)}`);
          expect(violations, `${request.kind} ${request.method} ${request.path}`).toEqual([]);
        }),
        { seed: seed + index, numRuns: runsPerOperation, endOnFailure: true },
      );
      // A fuzz run that never got past validation, or never failed it, proves little.
      // Most valid requests must pass, or a server refusing good input goes unnoticed. Not all:
      // a quarter use a random id (404), and a schema-valid body can still break a rule (400).
      expect(valid.sent, "valid requests were sent").toBeGreaterThan(runsPerOperation / 10);
      expect(valid.succeeded / valid.sent, `valid requests answered 2xx (${valid.succeeded} of ${valid.sent})`).toBeGreaterThan(0.5);
      expect(counts["400"], "some requests are refused").toBeGreaterThan(0);
    });
  });

  it("the server is healthy afterwards", async () => {
    const res = await fetch(`${server.url}/widgets/${exampleId("readWidget")}`, { headers: credentialsFor("readWidget", appA) });
    expect(res.status).toBe(200);
    const total = Object.values(seen).reduce((n, c) => n + Object.values(c).reduce((a, b) => a + b, 0), 0);
    expect(total).toBeGreaterThanOrEqual(2000);
  });

  it("no answer and no log line holds a submitted credential or e-mail auth value", () => {
    expect(logs.lines.length).toBeGreaterThanOrEqual(2000);
    expect([...submitted].filter((s) => s.startsWith(secretMark)).length, "marked e-mail secrets were sent").toBeGreaterThan(10);
    expect(leaks(answers, submitted)).toEqual([]);
    expect(leaks(logs.lines, submitted)).toEqual([]);
  });
});
