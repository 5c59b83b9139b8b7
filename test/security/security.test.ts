// Every operation × every kind of credentials, cross-application access, and a scan of every
// response (headers and body) and every log line of the run for the submitted secrets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { startServer, type RunningServer } from "../support/server.js";
import { recordsOfA } from "../support/demo.js";
import { namedExample, responseViolations } from "../support/document.js";
import { captureLogs, leaks } from "../support/logs.js";
import { operationIds } from "../support/requests.js";
import { applies, apps, credentialKinds, credentials, crossApplication, emailSecrets, expectedStatus, idsOfA, requests, submittedSecrets, type Call } from "./matrix.js";

/** Every log line of every server this file starts, at the most verbose level. */
const { logger, lines: logLines } = captureLogs();
/** Every answer of the run, headers and body, for the scan. */
const answers: string[] = [];

let server: RunningServer;
let limited: RunningServer;

beforeAll(async () => {
  server = await startServer({ rateLimit: false, failedAuthLimit: false, logger });
  // A second server with a tiny per-key limit, so the 429 path is scanned too.
  limited = await startServer({ rateLimit: { limit: 1, windowMs: 60_000 }, logger });
});
afterAll(async () => {
  await server?.close();
  await limited?.close();
});

async function call(base: string, request: Call, headers: Record<string, string>) {
  const res = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: { ...headers, ...(request.body !== undefined ? { "content-type": "application/json" } : {}) },
    body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
  });
  const text = await res.text();
  answers.push(JSON.stringify([...res.headers]) + text);
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const ids = operationIds;
/** Every operation with each kind of credentials that applies to it. */
const rows = ids.flatMap((id) => credentialKinds.filter((kind) => applies(id, kind)).map((kind) => [id, kind] as const));

describe("credentials matrix", () => {
  it.each(rows)("%s with %s", async (id, kind) => {
    const res = await call(server.url, requests[id], credentials(id, kind));
    expect(res.status, res.text).toBe(expectedStatus(kind));
    expect(responseViolations(id, res.status, res.headers.get("content-type"), res.body, res.headers)).toEqual([]);
    // A refusal is the unauthorized problem, with the challenge on bearer operations; an answer is neither.
    const bearer = (operations[id].security as readonly string[]).includes("bearerAuth");
    expect({ code: res.body.code, challenge: res.headers.get("www-authenticate") }).toEqual(
      expectedStatus(kind) === 401 ? { code: "unauthorized", challenge: bearer ? "Bearer" : null } : { code: undefined, challenge: null },
    );
  });
});

describe("cross-application access", () => {
  // An empty table would register no test below.
  it("has operations on an id of A's to try", () => {
    expect(crossApplication.length).toBeGreaterThan(0);
  });

  it.each(crossApplication)("%s: B's key on A's id answers 404", async (id) => {
    const res = await call(server.url, requests[id], credentials(id, "right key", "B"));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });

  it.each(["findEncryptionReports", "findWebhooks"] as const)("%s: B's key lists none of A's records", async (id) => {
    const res = await call(server.url, { ...requests[id], path: requests[id].path.split("?")[0]! }, credentials(id, "right key", "B"));
    expect(res.status).toBe(200);
    expect(res.body.result.length).toBeGreaterThan(0);
    expect(idsOfA.length).toBeGreaterThan(0);
    for (const a of idsOfA) expect(res.text).not.toContain(a);
  });

  it("saveEmailTransport: B's save touches B's transport, not A's", async () => {
    // A copy: the store may hand out its live record, which a wrong save would change in place.
    const before = structuredClone(await server.store.emailTransport(apps.A.applicationId));
    expect(before, "application A has a transport to keep").toBeDefined();
    const res = await call(server.url, requests.saveEmailTransport, credentials("saveEmailTransport", "right key", "B"));
    expect(res.status).toBe(200);
    expect(idsOfA.length).toBeGreaterThan(0);
    for (const a of idsOfA) expect(res.text).not.toContain(a);
    expect(res.body.result.application_id).toBe(apps.B.applicationId);
    expect(await server.store.emailTransport(apps.B.applicationId)).toEqual(res.body.result);
    expect(await server.store.emailTransport(apps.A.applicationId), "A's transport is unchanged").toEqual(before);
  });

  it("createNotification: B cannot target A's users", async () => {
    const body = { ...(requests.createNotification.body as object), broadcast: undefined, receivers: [recordsOfA.users[0]!] };
    const res = await call(server.url, { ...requests.createNotification, body }, credentials("createNotification", "right key", "B"));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
  });
});

describe("secrets never leave", () => {
  it("an SES save answers only the opaque token", async () => {
    const ses = namedExample("EmailSaveSes") as { auth: object };
    const body = { ...ses, auth: { ...ses.auth, accessKeyId: "AKIAMATRIXEXAMPLE01", secretAccessKey: emailSecrets.ses } };
    const res = await call(server.url, { ...requests.saveEmailTransport, body }, credentials("saveEmailTransport", "right key"));
    expect(res.status).toBe(200);
    expect(res.body.result.auth).not.toContain(emailSecrets.ses);
  });

  it("a rate-limited key gets 429 with Retry-After", async () => {
    const headers = credentials("readWidget", "right key");
    await call(limited.url, requests.readWidget, headers);
    const res = await call(limited.url, requests.readWidget, headers);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("no response header or body and no log line holds a submitted secret", () => {
    expect(answers.length).toBeGreaterThanOrEqual(rows.length);
    expect(logLines.length, "the logger captured the run").toBeGreaterThanOrEqual(answers.length);
    expect(leaks(answers, submittedSecrets)).toEqual([]);
    // The base64 of a Basic credential would carry key and secret too.
    const basic = Buffer.from(`${apps.A.apiKey}:${apps.A.apiSecret}`).toString("base64");
    expect(leaks(logLines, [...submittedSecrets, basic])).toEqual([]);
  });
});
