// CORS on the reference server: a preflight from an allowed origin is answered 204 with the
// allowed and exposed headers, before the rate limit (it uses no slot), credentials and
// validation; answers, errors included, carry the origin; a disallowed origin gets no CORS
// header and its request is answered as usual; CORS off sends none at all. CORS_ORIGINS is
// parsed by corsFromEnv (what `npm start` reads). Each test starts its own server, which on a
// busy machine takes longer than the default test timeout.
import { afterEach, describe, expect, it } from "vitest";
import { corsAllowedHeaders } from "../../../server/middleware/layer-headers.js";
import { corsExposedHeaders, corsFromEnv, defaultCorsOrigins } from "../../../server/middleware/cors.js";
import { operations } from "../../../generated/operations.js";
import { appA } from "../../support/demo.js";
import { loadDocument } from "../../../server/document/load.js";
import { problemOf, startHarness, type Harness } from "./harness.js";

let server: Harness | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const widget = "/widgets/wgt_5a3c8e1f7b92";
const bearer = { authorization: `Bearer ${appA.apiKey}` };

const preflight = (origin: string, path = widget) =>
  fetch(`${server!.url}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization,x-request-id" },
  });

const lowerList = (value: string | null) =>
  (value ?? "")
    .split(/,\s*/)
    .map((name) => name.toLowerCase())
    .sort();

describe("an allowed origin (the default: local dev servers on any port)", { timeout: 90_000 }, () => {
  it("gets its preflight answered 204 with the allowed methods and headers, before credentials and validation", async () => {
    server = await startHarness({ cors: { origins: defaultCorsOrigins } });
    const response = await preflight("http://localhost:5173");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(lowerList(response.headers.get("access-control-allow-headers"))).toEqual(corsAllowedHeaders.map((name) => name.toLowerCase()).sort());
    // The document's methods: an added operation's method is allowed without editing this test.
    expect(lowerList(response.headers.get("access-control-allow-methods"))).toEqual([...new Set(Object.values(operations).map((operation) => operation.method))].sort());
    expect(response.headers.get("vary")).toMatch(/Origin/);
    expect(await response.text()).toBe("");
  });

  it("uses no rate-limit slot with its preflights", async () => {
    server = await startHarness({ cors: { origins: defaultCorsOrigins }, rateLimit: { limit: 1, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await preflight("http://127.0.0.1:8080")).status).toBe(204);
    const response = await fetch(`${server.url}${widget}`, { headers: { ...bearer, origin: "http://127.0.0.1:8080" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toMatch(/r=0/);
  });

  it("can read the answer, an error's too, and the exposed headers", async () => {
    server = await startHarness({ cors: { origins: defaultCorsOrigins }, rateLimit: { limit: 1, windowMs: 60_000 } });
    const origin = "http://localhost:3001";
    const ok = await fetch(`${server.url}${widget}`, { headers: { ...bearer, origin } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    expect(lowerList(ok.headers.get("access-control-expose-headers"))).toEqual(
      corsExposedHeaders(loadDocument())
        .map((name) => name.toLowerCase())
        .sort(),
    );
    const limited = await fetch(`${server.url}${widget}`, { headers: { ...bearer, origin } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("access-control-allow-origin")).toBe(origin);
    const unauthorized = await fetch(`${server.url}/webhooks`, { headers: { origin } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(origin);
  });
});

describe("exposed headers", () => {
  it("are every response header the document declares that a page cannot read by default", () => {
    const exposed = corsExposedHeaders(loadDocument()).map((name) => name.toLowerCase());
    for (const name of ["www-authenticate", "x-request-id", "retry-after", "ratelimit", "ratelimit-policy"]) expect(exposed).toContain(name);
    for (const name of ["content-type", "access-control-allow-origin"]) expect(exposed).not.toContain(name);
  });

  it("follow the document: a header declared on one response is exposed", () => {
    const document = structuredClone(loadDocument());
    const readWidget = (document.paths!["/widgets/{id}"] as unknown as { get: { responses: Record<string, unknown> } }).get;
    readWidget.responses["202"] = {
      description: "Accepted",
      headers: { "X-Widget-Version": { schema: { type: "string" } }, "Cache-Control": { schema: { type: "string" } } },
    };
    const exposed = corsExposedHeaders(document);
    expect(exposed).toContain("X-Widget-Version");
    expect(exposed).not.toContain("Cache-Control");
  });

  it("are listed in the same order whatever the order of the document's paths", () => {
    const document = loadDocument();
    const reversed = { ...document, paths: Object.fromEntries(Object.entries(document.paths!).reverse()) };
    const exposed = corsExposedHeaders(document);
    expect(corsExposedHeaders(reversed)).toEqual(exposed);
    expect(exposed).toEqual([...exposed].sort());
  });
});

describe("an origin not allowed", { timeout: 90_000 }, () => {
  it("gets no CORS header on a preflight, which is answered as usual (405: no operation takes OPTIONS)", async () => {
    server = await startHarness({ cors: { origins: defaultCorsOrigins } });
    for (const origin of ["https://evil.example", "http://localhost.evil.example:5173", "https://localhost:5173"]) {
      const response = await preflight(origin);
      expect(response.headers.get("access-control-allow-origin"), origin).toBeNull();
      expect(response.headers.get("access-control-allow-headers"), origin).toBeNull();
      expect(response.status).toBe(405);
      expect((await problemOf(response)).code).toBe("method_not_allowed");
    }
  });

  it("gets its request answered as usual, without CORS headers", async () => {
    server = await startHarness({ cors: { origins: ["https://app.example"] } });
    const response = await fetch(`${server.url}${widget}`, { headers: { ...bearer, origin: "http://localhost:5173" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-expose-headers")).toBeNull();
    expect((await preflight("https://app.example")).headers.get("access-control-allow-origin")).toBe("https://app.example");
  });
});

describe("CORS off", { timeout: 90_000 }, () => {
  it("sends no CORS header at all, not even to a local origin", async () => {
    server = await startHarness({ cors: corsFromEnv("off") });
    const response = await preflight("http://localhost:5173");
    expect(response.status).toBe(405);
    expect([...response.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
    const answer = await fetch(`${server.url}${widget}`, { headers: { ...bearer, origin: "http://localhost:5173" } });
    expect([...answer.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });
});

describe("any origin (`*`)", { timeout: 90_000 }, () => {
  it("answers every origin with `*`", async () => {
    server = await startHarness({ cors: corsFromEnv("*") });
    const response = await preflight("https://anywhere.example");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("CORS_ORIGINS", () => {
  it("defaults to local dev servers; `off`, `*` and comma lists", () => {
    expect(corsFromEnv(undefined)).toEqual({ origins: ["http://localhost:*", "http://127.0.0.1:*"] });
    expect(corsFromEnv("")).toEqual({ origins: defaultCorsOrigins });
    expect(corsFromEnv("off")).toBe(false);
    expect(corsFromEnv("OFF")).toBe(false);
    expect(corsFromEnv("*")).toEqual({ origins: "*" });
    expect(corsFromEnv(" https://app.example , http://localhost:* ")).toEqual({ origins: ["https://app.example", "http://localhost:*"] });
  });

  it("reads a value padded with spaces, an empty entry and an origin that ends in `off` as meant", () => {
    expect(corsFromEnv("   ")).toEqual({ origins: defaultCorsOrigins });
    expect(corsFromEnv(" off ")).toBe(false);
    expect(corsFromEnv("https://app.example,")).toEqual({ origins: ["https://app.example"] });
    expect(corsFromEnv("http://kickoff")).toEqual({ origins: ["http://kickoff"] }); // an intranet host
  });

  it("refuses a value that is not an origin", () => {
    expect(() => corsFromEnv("https://app.example/path")).toThrow(/CORS_ORIGINS holds "https:\/\/app.example\/path"/);
    expect(() => corsFromEnv("app.example")).toThrow(/not an origin/);
    // `off` only alone: with an origin beside it, it is a mistake, not CORS off.
    expect(() => corsFromEnv("off,https://app.example")).toThrow(/CORS_ORIGINS holds "off"/);
    expect(() => corsFromEnv("git+https://app.example")).toThrow(/CORS_ORIGINS holds "git\+https:\/\/app.example"/);
  });
});
