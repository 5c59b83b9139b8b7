// No request pays for compilation (server/contract-layer/validator.ts, readiness.ts): served by
// `listen()`, directly or mounted in a host app, or after `await ready(app)`, a correct
// request to every operation compiles no schema; nor do the Content-Type variants a client
// may send (a charset, a made-up parameter), which eov would compile a new set of validators
// for. An app served without waiting, its precompiled validators (server/contract-layer/precompiled.ts)
// off, does compile on a path's first request: the counter sees compilation when there is some. Each app gets a copy of the document that differs in
// a description, so none shares validators another test already compiled.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { createContractApp, listen, ready, type Handlers, type Listening } from "../../server/contract-layer/index.js";
import { loadDocument } from "../../server/document/load.js";
import { setPrecompiled } from "../../server/contract-layer/precompiled.js";
import { operation, successExample } from "../support/document.js";
import { credentialsFor, validRequest } from "../support/requests.js";

// Every Ajv compilation of the process goes through this function (eov's validators too).
const compiler = createRequire(import.meta.url)("ajv/dist/compile/index.js") as { compileSchema: (...args: unknown[]) => unknown };
const original = compiler.compileSchema;
let compiled = 0;
beforeAll(() => {
  compiler.compileSchema = function (this: unknown, ...args: unknown[]) {
    compiled++;
    return original.apply(this, args);
  };
});
afterAll(() => {
  compiler.compileSchema = original;
});

const ids = Object.keys(operations) as OperationId[];
const app = { apiKey: "ak_test", apiSecret: "as_test" };
const caller = { applicationId: "app_1", organizationId: "org_1" };
const handlers = Object.fromEntries(
  ids.map((id) => {
    const status = Number(Object.keys((operation(id) as { responses: object }).responses).find((code) => /^2\d\d$/.test(code)));
    return [id, () => (status === 200 ? successExample(id) : { status, body: successExample(id) })];
  }),
) as unknown as Handlers;

let copies = 0;
/** A contract app over a copy of the document no other app has. */
function freshApp() {
  const document = loadDocument();
  document.info.description = `${document.info.description} (readiness test copy ${++copies})`;
  return createContractApp({ handlers, authenticate: { authenticateBearer: async () => caller, authenticateKeyPair: async () => caller }, document, rateLimit: false });
}

const closers: (() => Promise<unknown>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

async function served(listening: Listening): Promise<string> {
  closers.push(listening.close);
  return listening.origin;
}
async function plain(handler: express.Express): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One correct request per operation under `base`; resolves with the statuses and how many schemas were compiled meanwhile. */
async function everyOperation(base: string, contentType = "application/json"): Promise<{ statuses: number[]; compiled: number }> {
  const before = compiled;
  const statuses: number[] = [];
  for (const id of ids) {
    const request = validRequest(id);
    const res = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: { ...credentialsFor(id, app), ...(request.body === undefined ? {} : { "content-type": contentType }) },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return { statuses, compiled: compiled - before };
}

// The encodings iconv-lite loads on its first decode: what the body reader of Express reads text with.
const fromExpress = createRequire(createRequire(import.meta.url).resolve("express"));
const iconv = createRequire(createRequire(fromExpress.resolve("body-parser")).resolve("raw-body"))("iconv-lite") as { encodings: unknown };

const allSucceeded = (statuses: number[]) => statuses.every((status) => status >= 200 && status < 300);

describe("validators compiled before the first request", () => {
  it("ready() loads the body reader's encoding tables, so a service's first request with a body does not", async () => {
    // iconv-lite loads them on the first decode of the process and keeps them on `encodings`.
    iconv.encodings = null;
    await ready(freshApp());
    expect(iconv.encodings).not.toBeNull();
  });

  it("an app served without waiting compiles on a path's first request (precompiled validators off)", async () => {
    // With generated/validators.cjs served, nothing compiles for this document at all; off,
    // as for a document of the service's own, the path's first request compiles.
    setPrecompiled(false);
    try {
      const origin = await plain(freshApp());
      const before = compiled;
      const res = await fetch(`${origin}/v1${validRequest("readWidget").path}`, { headers: credentialsFor("readWidget", app) });
      expect(res.status).toBe(200);
      expect(compiled - before).toBeGreaterThan(0);
    } finally {
      setPrecompiled(true);
    }
  });

  it("listen() opens the port once every operation's request and response validators are compiled", async () => {
    const { statuses, compiled: count } = await everyOperation(`${await served(await listen(freshApp()))}/v1`);
    expect(allSucceeded(statuses)).toBe(true);
    expect(count).toBe(0);
  });

  it("listen() of a host app waits for the contract app mounted in it", async () => {
    const host = express();
    host.get("/health", (_req, res) => void res.send("ok"));
    host.use("/api", freshApp());
    const { statuses, compiled: count } = await everyOperation(`${await served(await listen(host))}/api/v1`);
    expect(allSucceeded(statuses)).toBe(true);
    expect(count).toBe(0);
  });

  it("await ready(app) does it for a host that serves the app itself", async () => {
    const contract = freshApp();
    await ready(contract);
    const origin = await plain(contract);
    const { statuses, compiled: count } = await everyOperation(`${origin}/v1`);
    expect(allSucceeded(statuses)).toBe(true);
    expect(count).toBe(0);

    // A charset, other letter case or a made-up parameter: eov is shown the bare media type.
    for (const contentType of ["application/json; charset=UTF-8", "Application/JSON", "application/json; x-made-up=1", "application/json;x-made-up=2"]) {
      const variant = await everyOperation(`${origin}/v1`, contentType);
      expect({ contentType, ok: allSucceeded(variant.statuses), compiled: variant.compiled }).toEqual({ contentType, ok: true, compiled: 0 });
    }
    // A read with a Content-Type of its own (it sends no body): nothing to compile either.
    const before = compiled;
    const res = await fetch(`${origin}/v1${validRequest("readWidget").path}`, { headers: { ...credentialsFor("readWidget", app), "content-type": "text/plain; a=1" } });
    expect(res.status).toBe(200);
    expect(compiled - before).toBe(0);
  });
});
