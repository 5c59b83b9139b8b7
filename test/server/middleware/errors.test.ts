// Every row of the error table (docs/decisions.md, Errors), answered by the one error mapper as an RFC 9457
// problem (application/problem+json, the document's Problem schema, type = base + code,
// instance = the request path), with the row's extra headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "@authsvc/app-api-contract";
import express from "express";
import { listen } from "../../../server/contract-layer/listen.js";
import { createReferenceApp } from "../../../server/reference-server.js";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";
import { captureLogs } from "../../support/logs.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";
import { httpMethods } from "../../../server/document/walk.js";
import { appA } from "../../support/demo.js";
import { doc } from "../../support/document.js";
import { rawRequest } from "../../bad-input/raw-http.js";

const bearer = { authorization: `Bearer ${appA.apiKey}` };
const json = { ...bearer, "content-type": "application/json" };

let server: Harness;
beforeAll(async () => {
  server = await startHarness({
    rateLimit: false,
    handlers: {
      // A handler that fails the way a bug would: the mapper must hide it behind a generic 500.
      readWebhook: () => {
        throw new Error("database password is hunter2 at /srv/app/secret.ts:12");
      },
    },
  });
});
afterAll(() => server.close());

describe("400 validation_failed", () => {
  it("names each offending query value, with what the document says it is", async () => {
    const response = await fetch(`${server.url}/webhooks?limit=500&page=0`, { headers: bearer });
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.code).toBe("validation_failed");
    expect(problem.instance).toBe("/v1/webhooks");
    expect(problem.errors).toEqual([
      { in: "query", name: "limit", message: expect.stringMatching(/<= 100/) },
      { in: "query", name: "page", message: expect.stringMatching(/>= 1/) },
    ]);
    expect(problem.detail).toMatch(/limit/);
  });

  it("refuses a millisecond start_date/end_date saying the unit is seconds", async () => {
    const response = await fetch(`${server.url}/reports/encryption?start_date=1767225600000&end_date=1798761599000`, { headers: bearer });
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    expect(problem.errors).toHaveLength(2);
    for (const [index, name] of ["start_date", "end_date"].entries()) {
      expect(problem.errors![index]).toMatchObject({ in: "query", name });
      expect(problem.errors![index]!.message).toMatch(/seconds/);
    }
  });

  it.each([
    ["ip", "2001:db8::42"],
    ["ip", "2001%3Adb8%3A%3A42"],
    ["email", "maria.lopez@acme-shop.example"],
    ["email", "maria.lopez%40acme-shop.example"],
  ])("accepts %s=%s with or without percent-encoding (allowReserved; eov refused the bare `:` and `@`)", async (name, value) => {
    const response = await fetch(`${server.url}/reports/encryption?${name}=${value}`, { headers: bearer });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { meta: { total_count: number } }).meta.total_count).toBe(1);
  });

  it("refuses an unknown query parameter by name", async () => {
    const problem = await problemOf(await fetch(`${server.url}/webhooks?limt=10`, { headers: bearer }));
    expect(problem.errors).toEqual([{ in: "query", name: "limt", message: expect.stringMatching(/Unknown query parameter/) }]);
  });

  it("refuses a path parameter outside its pattern", async () => {
    const response = await fetch(`${server.url}/widgets/wgt%20bad`, { headers: bearer });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors).toEqual([{ in: "path", name: "id", message: expect.stringMatching(/pattern/) }]);
  });

  it("points into the body with JSON pointers, one entry per value", async () => {
    const response = await send(server, { method: "PUT", path: "/sms/providers/sms_2c7e9b4f1a6d", body: JSON.stringify({ sort: "LEFT", colour: "red" }) }, bearer);
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { in: "body", pointer: "/sort", message: expect.stringMatching(/UP, DOWN/) },
        { in: "body", pointer: "/colour", message: expect.any(String) },
      ]),
    );
    expect(problem.errors).toHaveLength(2);
  });

  it("does not coerce body values (a string is not a boolean), while query strings are read as numbers", async () => {
    const response = await send(server, { method: "PUT", path: "/sms/providers/sms_9e4a1d7c3b2f", body: JSON.stringify({ is_active: "true" }) }, bearer);
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors).toEqual([{ in: "body", pointer: "/is_active", message: "must be boolean" }]);
    expect((await fetch(`${server.url}/webhooks?limit=20&page=1`, { headers: bearer })).status).toBe(200);
  });

  it("points at the discriminator of a union body", async () => {
    const response = await send(server, { method: "POST", path: "/custom/emails", body: JSON.stringify({ type: "SMTP" }) }, bearer);
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors).toEqual([{ in: "body", pointer: "/type", message: expect.stringMatching(/SENDGRID, SES/) }]);
  });

  it("comes through the generated client as a typed error", async () => {
    const client = createApiClient({ baseUrl: server.url, apiKey: appA.apiKey });
    const { error, response } = await client.GET("/users/{id}/activity", { params: { path: { id: "usr_7d2e9a4c1b6f" }, query: { limit: 5 } } });
    expect(response.status).toBe(400);
    expect(error?.code).toBe("validation_failed");
    expect(error?.errors?.[0]).toMatchObject({ in: "query", name: "limit" });
  });
});

describe("a well-formed JSON body that is not an object", () => {
  it.each(["null", "1", '"text"', "true"])("%s is validation_failed, never a 500 (eov's discriminator step crashed on null)", async (body) => {
    for (const [path, headers] of [
      ["/custom/emails", bearer],
      ["/notifications", { "x-api-key": appA.apiKey, "x-api-secret": appA.apiSecret }],
    ] as const) {
      const response = await send(server, { method: "POST", path, body }, headers);
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem.code).toBe("validation_failed");
      expect(problem.errors).toEqual([{ in: "body", pointer: "", message: "must be object" }]);
    }
  });
});

describe("400 malformed_json", () => {
  it("answers an unparsable body without echoing it", async () => {
    const response = await fetch(`${server.url}/custom/emails`, { method: "POST", headers: json, body: '{"type":"SENDGRID","auth":{"api_key":"SG.leak' });
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.code).toBe("malformed_json");
    expect(JSON.stringify(problem)).not.toContain("SG.leak");
  });
});

describe("a body that cannot be decoded", () => {
  it.each(["gzip", "deflate", "br"])("Content-Encoding %s over plain bytes is 400 malformed_json, not a 500 (zlib's untyped error)", async (encoding) => {
    const response = await fetch(`${server.url}/sms/providers/sms_9e4a1d7c3b2f`, {
      method: "PUT",
      headers: { ...json, "content-encoding": encoding },
      body: '{"name":"x"}',
    });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe("malformed_json");
  });

  it("an unknown Content-Encoding is 415", async () => {
    const response = await fetch(`${server.url}/sms/providers/sms_9e4a1d7c3b2f`, { method: "PUT", headers: { ...json, "content-encoding": "compress" }, body: "{}" });
    expect(response.status).toBe(415);
    expect((await problemOf(response)).code).toBe("unsupported_media_type");
  });
});

describe("401 unauthorized", () => {
  it("adds WWW-Authenticate: Bearer on a bearer operation", async () => {
    const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect((await problemOf(response)).code).toBe("unauthorized");
  });

  it("does not on POST /notifications, which takes X-Api-Key and X-Api-Secret", async () => {
    const response = await send(server, { method: "POST", path: "/notifications", body: "{}" }, bearer);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBeNull();
    expect((await problemOf(response)).detail).toMatch(/X-Api-Key/);
  });
});

describe("404 not_found", () => {
  it("answers an unknown route under /v1", async () => {
    const response = await fetch(`${server.url}/widgetz/wgt_5a3c8e1f7b92`, { headers: bearer });
    expect(response.status).toBe(404);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ code: "not_found", instance: "/v1/widgetz/wgt_5a3c8e1f7b92" });
  });

  it.each(["/v1/WEBHOOKS", "/V1/webhooks", "/V1/widgets/wgt_5a3c8e1f7b92"])("treats %s as unknown: paths are case-sensitive", async (path) => {
    // /V1/... is outside the validator's base path, yet eov's operation router (a plain
    // express.Router) matched it and ran the handler unauthenticated: a 500 before the fix.
    const response = await fetch(`${new URL(server.url).origin}${path}`, { headers: bearer });
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe("not_found");
  });

  it("answers an unknown route outside /v1", async () => {
    const response = await fetch(server.url.replace(/\/v1$/, "/widgets/wgt_5a3c8e1f7b92"), { headers: bearer });
    expect(response.status).toBe(404);
    expect((await problemOf(response)).instance).toBe("/widgets/wgt_5a3c8e1f7b92");
  });

  it("names the whole path in instance when the app is mounted in a host app, the query left out", async () => {
    const host = express().use("/api", createReferenceApp({ store: createStore(loadSeed()), logger: captureLogs("warn").logger }));
    const mounted = await listen(host, { idleGraceMs: 0 });
    try {
      const response = await fetch(`${mounted.origin}/api/v1/widgets/wgt_5a3c8e1f7b92?token=pasted`);
      expect(response.status).toBe(401);
      expect((await problemOf(response)).instance).toBe("/api/v1/widgets/wgt_5a3c8e1f7b92");
    } finally {
      await mounted.close();
    }
  });

  it("answers an unknown id (a handler's ApiProblem)", async () => {
    const response = await fetch(`${server.url}/widgets/wgt_000000000000`, { headers: bearer });
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe("not_found");
  });
});

describe("405 method_not_allowed", () => {
  it("lists the served methods in Allow", async () => {
    // A method the document serves at no operation of the path; Allow read from it too, so an
    // operation added there (a DELETE) changes the expectation, not the test.
    const served = httpMethods.filter((method) => doc.paths["/webhooks/{id}"][method]).map((method) => method.toUpperCase());
    const response = await fetch(`${server.url}/webhooks/whk_3a7f1c9e5b2d`, { method: "PATCH", headers: bearer });
    expect(served).not.toContain("PATCH");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(served.join(", "));
    expect((await problemOf(response)).code).toBe("method_not_allowed");
  });
});

describe("409 conflict", () => {
  it("maps a rule's ApiProblem (un-defaulting the default provider)", async () => {
    const response = await send(server, { method: "PUT", path: "/sms/providers/sms_2c7e9b4f1a6d", body: JSON.stringify({ is_default: false }) }, bearer);
    expect(response.status).toBe(409);
    expect((await problemOf(response)).code).toBe("conflict");
  });
});

describe("413 payload_too_large", () => {
  it("refuses a JSON body over 100 kB", async () => {
    const body = JSON.stringify({ type: "SENDGRID", from_name: "x".repeat(101 * 1024) });
    const response = await fetch(`${server.url}/custom/emails`, { method: "POST", headers: json, body });
    expect(response.status).toBe(413);
    expect((await problemOf(response)).code).toBe("payload_too_large");
  });

  it("accepts a body just under the limit as far as size goes (then validates it)", async () => {
    const body = JSON.stringify({ type: "SENDGRID", from_name: "x".repeat(99 * 1024) });
    const response = await fetch(`${server.url}/custom/emails`, { method: "POST", headers: json, body });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe("validation_failed");
  });
});

describe("415 unsupported_media_type", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", "application/xml"])("refuses a body sent as %s", async (type) => {
    const response = await fetch(`${server.url}/custom/emails`, { method: "POST", headers: { ...bearer, "content-type": type }, body: "type=SES" });
    expect(response.status).toBe(415);
    expect((await problemOf(response)).code).toBe("unsupported_media_type");
  });

  it("refuses a JSON body in an unsupported charset", async () => {
    const response = await fetch(`${server.url}/custom/emails`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json; charset=latin1" },
      body: "{}",
    });
    expect(response.status).toBe(415);
  });

  it.each(["utf-8", "UTF-8"])("reads a JSON body declared charset=%s (a UTF encoding, RFC 8259)", async (charset) => {
    const response = await fetch(`${server.url}/custom/emails`, {
      method: "POST",
      headers: { ...bearer, "content-type": `application/json; charset=${charset}` },
      body: "{}",
    });
    // Read and validated: the empty object lacks the required fields.
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe("validation_failed");
  });

  it("leaves unread the body of an operation that takes none (HTTP gives it no meaning)", async () => {
    const response = await rawRequest(new URL(server.url), {
      method: "GET",
      target: "/v1/widgets/wgt_5a3c8e1f7b92",
      headers: [
        ["Authorization", bearer.authorization],
        ["Content-Type", "application/json"],
      ],
      body: "{",
    });
    expect(response.status).toBe(200);
  });

  it("looks at the charset only when there is a body to read", async () => {
    // An operation that takes a body, sent none: the missing body is the problem, not its charset.
    const response = await rawRequest(new URL(server.url), {
      method: "POST",
      target: "/v1/custom/emails",
      headers: [
        ["Authorization", bearer.authorization],
        ["Content-Type", "application/json; charset=latin1"],
      ],
    });
    expect(response.status).toBe(400);
  });

  // No Content-Length and no Transfer-Encoding: no body at all (the validator used to reach
  // its discriminator step without one and answer 500).
  it.each([
    ["POST", "/v1/custom/emails", bearer.authorization],
    ["POST", "/v1/notifications", undefined],
    ["PUT", "/v1/sms/providers/sms_9e4a1d7c3b2f", bearer.authorization],
  ])("%s %s without any body: 400, the body is required", async (method, target, authorization) => {
    const credentials: [string, string][] = authorization
      ? [["Authorization", authorization]]
      : [
          ["X-Api-Key", appA.apiKey],
          ["X-Api-Secret", appA.apiSecret],
        ];
    const response = await rawRequest(new URL(server.url), { method, target, headers: [...credentials, ["Content-Type", "application/json"]] });
    expect(response.status).toBe(400);
    const problem = JSON.parse(response.body) as { code: string; errors: unknown[] };
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors).toEqual([{ in: "body", pointer: "", message: "is required" }]);
  });
});

describe("429 rate_limited", () => {
  it("adds Retry-After once the key's quota is spent", async () => {
    const limited = await startHarness({ rateLimit: { limit: 2, windowMs: 60_000 } });
    try {
      for (let i = 0; i < 2; i++) expect((await fetch(`${limited.url}/webhooks`, { headers: bearer })).status).toBe(200);
      const response = await fetch(`${limited.url}/webhooks`, { headers: bearer });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await problemOf(response)).code).toBe("rate_limited");
    } finally {
      await limited.close();
    }
  });
});

describe("500 internal_error", () => {
  it("answers a throwing handler with a generic body and logs the cause with the request id", async () => {
    const response = await fetch(`${server.url}/webhooks/whk_3a7f1c9e5b2d`, { headers: { ...bearer, "x-request-id": "trace-500" } });
    expect(response.status).toBe(500);
    const problem = await problemOf(response);
    expect(problem.code).toBe("internal_error");
    const text = JSON.stringify(problem);
    for (const leak of ["hunter2", "/srv/app", "secret.ts", "at ", "stack"]) expect(text).not.toContain(leak);
    const logged = server.logs.find((line) => line.msg === "unexpected error" && (line.req as { id?: string } | undefined)?.id === "trace-500");
    expect(logged, "the cause is logged with the request id").toBeDefined();
    expect(JSON.stringify(logged)).toContain("hunter2");
  });
});
