// The configuration is read from the environment in one place (server/config.ts), each
// variable once, with the messages the entry points print; every variable it reads is
// documented in docs/reference-server.md.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { databaseCommandConfigFromEnv, mockConfigFromEnv, serverConfigFromEnv } from "../../server/config.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");

describe("serverConfigFromEnv", () => {
  it("gives the documented defaults for an empty environment", () => {
    expect(serverConfigFromEnv({})).toEqual({
      port: 3000,
      host: "127.0.0.1",
      seedFile: undefined,
      logLevel: "info",
      emailAuthKey: undefined,
      database: undefined,
      rateLimit: { limit: 600, windowMs: 60_000 },
      failedAuthLimit: { limit: 60, windowMs: 60_000 },
      concurrencyLimit: 16,
      trustProxy: false,
      validateResponses: true,
      cors: { origins: ["http://localhost:*", "http://127.0.0.1:*"] },
    });
  });

  it("reads an empty variable as its default", () => {
    const empty = Object.fromEntries(
      ["PORT", "HOST", "SEED_FILE", "LOG_LEVEL", "EMAIL_AUTH_KEY", "DATABASE_URL", "RATE_LIMIT", "CONCURRENCY_LIMIT", "VALIDATE_RESPONSES", "CORS_ORIGINS"].map(
        (name) => [name, ""],
      ),
    );
    expect(serverConfigFromEnv(empty)).toEqual(serverConfigFromEnv({}));
  });

  it("reads each variable", () => {
    const config = serverConfigFromEnv({
      PORT: "8080",
      HOST: "0.0.0.0",
      SEED_FILE: "seed.json",
      LOG_LEVEL: "warn",
      DATABASE_URL: "postgres://app@127.0.0.1/authsvc",
      DATABASE_POOL_MAX: "20",
      DATABASE_POOL_WAIT_MS: "100",
      DATABASE_STATEMENT_TIMEOUT_MS: "0",
      RATE_LIMIT: "5",
      RATE_LIMIT_WINDOW_MS: "1000",
      FAILED_AUTH_LIMIT: "off",
      TRUST_PROXY: "1",
      NODE_ENV: "production",
      CORS_ORIGINS: "*",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      seedFile: "seed.json",
      logLevel: "warn",
      database: { url: "postgres://app@127.0.0.1/authsvc", poolMax: 20, poolWaitMs: 100, statementTimeoutMs: 0 },
      rateLimit: { limit: 5, windowMs: 1000 },
      failedAuthLimit: false,
      // A quarter of the pool by default with a database.
      concurrencyLimit: 5,
      trustProxy: 1,
      validateResponses: false,
      cors: { origins: "*" },
    });
  });

  it("has no concurrency limit when the rate limit is off, unless CONCURRENCY_LIMIT sets one", () => {
    expect(serverConfigFromEnv({ RATE_LIMIT: "off" }).concurrencyLimit).toBe(false);
    expect(serverConfigFromEnv({ RATE_LIMIT: "off", CONCURRENCY_LIMIT: "3" }).concurrencyLimit).toBe(3);
  });

  it.each([
    [{ PORT: "abc" }, 'PORT must be a non-negative integer, got "abc"'],
    [{ PORT: "-1" }, 'PORT must be a non-negative integer, got "-1"'],
    [{ RATE_LIMIT_WINDOW_MS: "1e3" }, 'RATE_LIMIT_WINDOW_MS must be a non-negative integer, got "1e3"'],
    [{ LOG_LEVEL: "loud" }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ VALIDATE_RESPONSES: "yes" }, 'VALIDATE_RESPONSES must be true or false, got "yes"'],
    [{ CONCURRENCY_LIMIT: "0" }, 'CONCURRENCY_LIMIT must be a positive integer or off, got "0"'],
    [{ DATABASE_URL: "postgres://x", DATABASE_POOL_MAX: "ten" }, 'DATABASE_POOL_MAX must be a non-negative integer, got "ten"'],
    [{ TRUST_PROXY: "true" }, /TRUST_PROXY must be a hop count/],
    [{ CORS_ORIGINS: "example.com" }, /CORS_ORIGINS holds "example.com"/],
  ])("refuses %j", (env, message) => {
    expect(() => serverConfigFromEnv(env)).toThrow(message);
  });
});

describe("the other entry points' configuration", () => {
  it("mock: PORT 4010, HOST, MOCK_DYNAMIC; PORT=abc refused with the same message", () => {
    const limitsOff = { rateLimit: false, failedAuthLimit: false };
    expect(mockConfigFromEnv({})).toEqual({ port: 4010, host: "127.0.0.1", dynamic: false, ...limitsOff });
    expect(mockConfigFromEnv({ PORT: "", HOST: "::1", MOCK_DYNAMIC: "true" })).toEqual({ port: 4010, host: "::1", dynamic: true, ...limitsOff });
    expect(() => mockConfigFromEnv({ PORT: "abc" })).toThrow('PORT must be a non-negative integer, got "abc"');
  });

  it("mock: MOCK_PAGES, the pages every list spans, from 1", () => {
    expect(mockConfigFromEnv({ MOCK_PAGES: "3" }).pages).toBe(3);
    expect(mockConfigFromEnv({ MOCK_PAGES: "" })).not.toHaveProperty("pages");
    expect(() => mockConfigFromEnv({ MOCK_PAGES: "0" })).toThrow('MOCK_PAGES must be 1 or more, got "0"');
    expect(() => mockConfigFromEnv({ MOCK_PAGES: "two" })).toThrow('MOCK_PAGES must be a non-negative integer, got "two"');
  });

  it("mock: the server's RATE_LIMIT and FAILED_AUTH_LIMIT, off unless set, `on` for the server's default", () => {
    const limits = (env: Record<string, string>) => {
      const { rateLimit, failedAuthLimit } = mockConfigFromEnv(env);
      return { rateLimit, failedAuthLimit };
    };
    expect(limits({ RATE_LIMIT: "", FAILED_AUTH_LIMIT: "" })).toEqual({ rateLimit: false, failedAuthLimit: false });
    expect(limits({ RATE_LIMIT: "on", FAILED_AUTH_LIMIT: "ON" })).toEqual({
      rateLimit: { limit: 600, windowMs: 60_000 },
      failedAuthLimit: { limit: 60, windowMs: 60_000 },
    });
    expect(limits({ RATE_LIMIT: "5", RATE_LIMIT_WINDOW_MS: "1000", FAILED_AUTH_LIMIT: "off" })).toEqual({
      rateLimit: { limit: 5, windowMs: 1000 },
      failedAuthLimit: false,
    });
    // The server's parser and messages: one reading of each variable.
    for (const [name, value] of [
      ["RATE_LIMIT", "many"],
      ["FAILED_AUTH_LIMIT", "-1"],
      ["RATE_LIMIT_WINDOW_MS", "1m"],
    ]) {
      const env = { RATE_LIMIT: "on", FAILED_AUTH_LIMIT: "on", [name!]: value! };
      expect(() => mockConfigFromEnv(env)).toThrow(`${name} must be a non-negative integer, got "${value}"`);
      expect(() => serverConfigFromEnv({ [name!]: value })).toThrow(`${name} must be a non-negative integer, got "${value}"`);
    }
  });

  it("database commands: DATABASE_URL and both keys, empty read as unset", () => {
    expect(databaseCommandConfigFromEnv({ DATABASE_URL: "postgres://x", EMAIL_AUTH_KEY: "", OLD_EMAIL_AUTH_KEY: "ab" })).toEqual({
      url: "postgres://x",
      emailAuthKey: undefined,
      oldEmailAuthKey: "ab",
    });
  });
});

describe("one reader", () => {
  it("no module of the server, the mock or the CLI reads process.env but server/config.ts", () => {
    const modules = ["server", "mock", "cli"].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts"))
        .map((file) => join(dir, file)),
    );
    expect(modules.length).toBeGreaterThan(50);
    // cli/mock.ts and cli/serve.ts hand the environment to the parser (a copy, their flags in it), never writing it.
    const readers = modules.filter((file) => /process\.env\b/.test(read(file))).map((file) => relative(".", file));
    expect(readers.sort()).toEqual(["cli/mock.ts", "cli/serve.ts", "server/config.ts"]);
    for (const file of ["cli/mock.ts", "cli/serve.ts"]) expect(read(file)).not.toMatch(/process\.env(\.\w+|\[[^\]]+\])\s*=|delete process\.env/);
  });

  it("docs/reference-server.md lists every variable server/config.ts reads", () => {
    const source = read("server/config.ts");
    const names = new Set([...source.matchAll(/"([A-Z][A-Z_]{2,})"|env\.([A-Z][A-Z_]{2,})/g)].map((match) => match[1] ?? match[2]!));
    expect(names.size).toBeGreaterThanOrEqual(19);
    const documented = read("docs/reference-server.md");
    expect([...names].filter((name) => !documented.includes(`| \`${name}\` |`))).toEqual([]);
  });
});
