// The precompiled validators (generated/validators.cjs, server/contract-layer/precompiled.ts) behave
// exactly as the ones Ajv compiles: the same requests run through express-openapi-validator's
// steps of two validators over the bundled document, one served precompiled and one compiling
// (precompiled lookups off), give the same raw Ajv errors, the same error eov raises and the
// same coerced query, parameters and body; the same success bodies (the document's examples
// and broken copies) give the same response check. Inputs: every operation's documented
// request, the bad-input corpus and 40 mutated requests per operation from the fuzz
// generators (a fixed seed). Then the drift check: warming the bundled document compiles
// nothing (every digest is in generated/), and a document with one schema changed misses,
// compiles its own validator (which enforces the change) and fails that check.
import { createRequire } from "node:module";
import express, { type Request, type RequestHandler, type Response } from "express";
import OpenApiValidator from "express-openapi-validator";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "../../../generated/operations.js";
import { basePathOf, loadDocument, type ApiDocument } from "../../../server/document/load.js";
import { pathPattern } from "../../../server/middleware/path-pattern.js";
import { patchedIn } from "../../../server/contract-layer/ajv-unevaluated.js";
import {
  envDigestOf,
  peerVersions,
  precompiledStats,
  setPeerVersions,
  setPrecompiled,
  type AjvInternals,
  type SchemaEnv,
} from "../../../server/contract-layer/precompiled.js";
import { chain } from "../../../server/contract-layer/router.js";
import { documentForValidator, documentValidator, validatorOptions, type DocumentValidator } from "../../../server/contract-layer/validator.js";
import { corpus } from "../../bad-input/corpus.js";
import { mutatedRequest } from "../../fuzz/requests.js";
import { responseExamples } from "../../support/document.js";
import { validRequest } from "../../support/requests.js";

// Every raw Ajv error list eov turns into its error passes through this helper of eov's.
const util = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"))("./middlewares/util.js") as {
  augmentAjvErrors: (errors: unknown[]) => unknown[];
};
const augment = util.augmentAjvErrors;
// eov bundles the $refs of the document it is given with this, unless the generator found that changes nothing.
const refParser = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"))("@apidevtools/json-schema-ref-parser") as {
  bundle: (...args: unknown[]) => unknown;
};
const bundle = refParser.bundle;
let bundled = 0;
let rawErrors: unknown[] = [];
beforeAll(() => {
  refParser.bundle = (...args) => {
    bundled++;
    return bundle.apply(refParser, args);
  };
  util.augmentAjvErrors = (errors) => {
    rawErrors.push(structuredClone(errors));
    return augment(errors);
  };
});
afterAll(() => {
  refParser.bundle = bundle;
  util.augmentAjvErrors = augment;
  setPrecompiled(true);
});

let copies = 0;
/** A copy of the bundled document no other validator of the process is over (its description differs; its schemas do not). */
function copy(): ApiDocument {
  const document = loadDocument();
  document.info.description = `${document.info.description} (precompiled test copy ${++copies})`;
  return document;
}
const basePath = basePathOf(loadDocument());

/** Runs `work` with precompiled validators served (`precompiled`) or not, counting what was served precompiled and what was compiled meanwhile. */
async function counted<T>(precompiled: boolean, work: () => T | Promise<T>): Promise<{ value: T; hits: number; misses: number; bundled: number }> {
  const [hits, misses, bundles] = [precompiledStats.hits, precompiledStats.misses, bundled];
  setPrecompiled(precompiled);
  try {
    const value = await work();
    return { value, hits: precompiledStats.hits - hits, misses: precompiledStats.misses - misses, bundled: bundled - bundles };
  } finally {
    setPrecompiled(true);
  }
}

/** Builds a validator over `document` and compiles everything, counting what was served precompiled and what was compiled. */
async function warmed(document: ApiDocument, precompiled: boolean): Promise<{ validator: DocumentValidator; hits: number; misses: number; bundled: number }> {
  const { value: validator, ...counts } = await counted(precompiled, async () => {
    const validator = documentValidator(document, basePath, true);
    await validator.warm();
    return validator;
  });
  return { validator, ...counts };
}

interface Input {
  name: string;
  method: string;
  /** Path and query below the base path, as sent. */
  target: string;
  headers: Record<string, string>;
  body?: unknown;
}

const ids = Object.keys(operations) as OperationId[];
const app = express();
app.enable("case sensitive routing");

/** What eov's steps of the operation matching `input` did with it: its error, the raw Ajv errors, the request as they left it. */
async function run(validator: DocumentValidator, input: Input): Promise<unknown> {
  const path = input.target.split("?")[0]!;
  const id = ids.find((id) => operations[id].method.toUpperCase() === input.method && pathPattern(basePath, operations[id].path).test(basePath + path));
  if (!id) return "no operation";
  return through(validator.operation(operations[id].method, operations[id].path, operations[id].hasBody), input);
}

/** What `handler` (a validator's steps) did with `input`: its error, the raw Ajv errors, the request as they left it. */
async function through(handler: RequestHandler, input: Input): Promise<unknown> {
  const url = basePath + input.target;
  const req = Object.create(app.request) as Request;
  Object.assign(req, { method: input.method, url, originalUrl: url, baseUrl: "", params: {}, body: structuredClone(input.body) });
  req.headers = Object.fromEntries(Object.entries(input.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const res = Object.create(app.response) as Response;
  res.locals = {};
  rawErrors = [];
  const error = await new Promise<unknown>((resolve) => {
    try {
      const returned = handler(req, res, resolve) as unknown;
      if (returned instanceof Promise) returned.catch(resolve);
    } catch (thrown) {
      resolve(thrown);
    }
  });
  const failure = error as { status?: number; message?: string; errors?: unknown } | undefined;
  return JSON.parse(
    JSON.stringify({
      error: failure ? { status: failure.status, message: failure.message, errors: failure.errors } : null,
      raw: rawErrors,
      query: req.query,
      params: req.params,
      body: req.body,
    }),
  );
}

/** The layer's check of a success body: passed, or the failure's message and items. */
function respond(validator: DocumentValidator, id: OperationId, status: number, body: unknown): unknown {
  rawErrors = [];
  try {
    validator.checkResponse(id, status, structuredClone(body));
    return "passed";
  } catch (error) {
    return { message: (error as Error).message, errors: (error as { errors?: unknown }).errors };
  }
}

function cloneable(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

/** Every operation's documented request. */
const documentedInputs = (): Input[] =>
  ids.map((id): Input => {
    const request = validRequest(id);
    return {
      name: `${id} documented`,
      method: request.method,
      target: request.path,
      headers: request.body === undefined ? {} : { "content-type": "application/json" },
      body: request.body,
    };
  });

function inputs(): Input[] {
  const documented = documentedInputs();
  const bad = corpus.flatMap((row): Input[] => {
    if (!row.target.startsWith(`${basePath}/`)) return [];
    let body: unknown;
    try {
      body = row.body === undefined ? undefined : JSON.parse(row.body.toString());
    } catch {
      return []; // the JSON reader refuses it before the validator
    }
    if (!cloneable(body)) return []; // nested past what the JSON reader accepts
    return [
      { name: `corpus ${row.category}: ${row.name}`, method: row.method, target: row.target.slice(basePath.length), headers: Object.fromEntries(row.headers), body },
    ];
  });
  const fuzzed = ids.flatMap((id) =>
    fc.sample(mutatedRequest(id), { numRuns: 40, seed: 20261127 }).map(
      (request, index): Input => ({
        name: `${id} fuzz ${index} ${request.kind}`,
        method: request.method,
        target: request.path + (request.query.length > 0 ? `?${new URLSearchParams(request.query)}` : ""),
        headers: request.headers,
        body: request.body,
      }),
    ),
  );
  return [...documented, ...bad, ...fuzzed];
}

describe("precompiled validators", () => {
  it("are looked up by the base URI and root a schema's $refs resolve against, not its text alone", () => {
    const Ajv = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"))("ajv").default as new () => AjvInternals;
    const ajv = new Ajv();
    const memo = new WeakMap<object, never>();
    const part = { $ref: "#/$defs/name" };
    const rootA: SchemaEnv = { schema: { $defs: { name: { type: "string" } }, properties: { name: part } } };
    const rootB: SchemaEnv = { schema: { $defs: { name: { type: "integer" } }, properties: { name: part } } };
    const digest = (env: SchemaEnv) => envDigestOf(ajv, env, memo);
    // The same text compiled on its own under two roots, or under two bases, is two digests.
    expect(digest({ schema: part, root: rootA })).not.toBe(digest({ schema: part, root: rootB }));
    expect(digest({ schema: part, root: rootA, baseId: "#/components/schemas/A" })).not.toBe(digest({ schema: part, root: rootA, baseId: "#/components/schemas/B" }));
    // A root compiled as itself, and the same root again, is one.
    expect(digest({ schema: rootA.schema })).toBe(digest({ schema: structuredClone(rootA.schema) }));
  });

  it("carry the unevaluatedProperties patch only where express-openapi-validator's ajv runs it", () => {
    const eovRequire = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
    expect(patchedIn(eovRequire)).toBe(true);
    // An ajv this module does not patch (here: none at all) gets no precompiled code.
    expect(patchedIn(createRequire("/nonexistent/service/index.js"))).toBe(false);
  });

  it("serve every validator of the bundled document: warming it compiles nothing", async () => {
    const { hits, misses, bundled } = await warmed(copy(), true);
    // Nor is the document bundled again: the generator found bundling leaves it unchanged.
    expect(bundled).toBe(0);
    expect(misses, `compiled instead of precompiled (generated/validators.cjs is stale: npm run generate): ${precompiledStats.missed.join("; ")}`).toBe(0);
    expect(hits).toBeGreaterThan(50);
  });

  it("give the same errors, coercion and results as compiled ones, on documented, corpus and fuzzed requests and on success bodies", async () => {
    const served = await warmed(copy(), true);
    const compiled = await warmed(copy(), false);
    expect(served.misses).toBe(0);
    expect(compiled.hits).toBe(0);
    expect(compiled.misses).toBeGreaterThan(50);

    // Each side keeps its setting while it validates too: a validator built lazily on the
    // way is then compiled on the compiled side and served on the other, never the same on both.
    const lazily = { compiledHits: 0, servedMisses: 0 };
    const compare = async (name: string, compiledSide: () => unknown, servedSide: () => unknown) => {
      const expected = await counted(false, compiledSide);
      const actual = await counted(true, servedSide);
      lazily.compiledHits += expected.hits;
      lazily.servedMisses += actual.misses;
      expect(actual.value, name).toEqual(expected.value);
      return expected.value;
    };
    const all = inputs();
    let invalid = 0;
    for (const input of all) {
      const expected = await compare(
        input.name,
        () => run(compiled.validator, input),
        () => run(served.validator, input),
      );
      if ((expected as { error: unknown }).error) invalid++;
    }
    // The inputs reach both sides of the validators.
    expect(all.length).toBeGreaterThan(300);
    expect(invalid).toBeGreaterThan(100);
    expect(all.length - invalid).toBeGreaterThan(20);

    for (const id of ids) {
      const status = operations[id].successStatus;
      for (const [name, example] of responseExamples(id)) {
        const bodies = [example, { ...(example as object), unexpected: 1 }, { data: "not an object" }, null, []];
        for (const body of bodies)
          await compare(
            `${id} ${name}`,
            () => respond(compiled.validator, id, status, body),
            () => respond(served.validator, id, status, body),
          );
      }
    }
    expect(lazily).toEqual({ compiledHits: 0, servedMisses: 0 });
  });

  it("fall back to compiling a changed schema, which the drift check reports", async () => {
    const changed = copy() as ApiDocument & { components: { schemas: Record<string, { maxLength?: number }> } };
    const field = changed.components.schemas.NotificationTitle!;
    expect(field.maxLength).toBeGreaterThan(5);
    field.maxLength = 5;
    const { validator, misses, bundled } = await warmed(changed, true);
    // The known-bad input of the drift check: a changed schema is not in generated/.
    expect(misses).toBeGreaterThan(0);
    // A document the generator did not see is bundled by eov, as always.
    expect(bundled).toBe(1);
    const request = validRequest("createNotification");
    const title = { ...(request.body as object), title: "Longer than five" };
    const outcome = (await run(validator, {
      name: "changed",
      method: request.method,
      target: request.path,
      headers: { "content-type": "application/json" },
      body: title,
    })) as {
      error: { status: number; message: string } | null;
    };
    expect(outcome.error?.status).toBe(400);
    expect(outcome.error?.message).toMatch(/title must NOT have more than 5 characters/);
  });
});

// docs/backend.md promises that another ajv, ajv-formats or eov release, or other Ajv
// options, fall back to compiling: each is an input of the digest (precompiled.ts,
// profileOf), and dropping it from the digest would serve the installed release's code to
// another (after `npm run generate`, the table matches again: only these tests see it).
describe("precompiled validators are not served", () => {
  const installed = peerVersions();
  afterEach(() => setPeerVersions(undefined));
  /** The next minor release of a version: what a peer range such as eov's `^5.6.2` admits next. */
  const nextMinor = (version: string) => version.replace(/^(\d+)\.(\d+)\..*$/, (_, major: string, minor: string) => `${major}.${Number(minor) + 1}.0`);

  it.each(["ajv", "ajv-formats", "express-openapi-validator"] as const)(
    "to another %s release: it compiles every validator, which enforces the document",
    async (name) => {
      setPeerVersions({ ...installed, [name]: nextMinor(installed[name]) });
      expect(peerVersions()[name]).not.toBe(installed[name]);
      const { validator, hits, misses } = await warmed(copy(), true);
      expect(hits).toBe(0);
      expect(misses).toBeGreaterThan(50);
      const title = { ...(validRequest("createNotification").body as object), title: "x".repeat(1000) };
      const outcome = (await run(validator, { name, method: "POST", target: "/notifications", headers: { "content-type": "application/json" }, body: title })) as {
        error: { status: number } | null;
      };
      expect(outcome.error?.status).toBe(400);
    },
  );

  /** The documented request of every operation through eov's own steps with `requestOptions` over a copy of the bundled document, counting what was served and compiled. */
  async function eovWith(requestOptions: { allErrors?: boolean }) {
    const steps = OpenApiValidator.middleware({
      ...validatorOptions,
      apiSpec: documentForValidator(copy(), basePath) as never,
      validateRequests: { ...validatorOptions.validateRequests, ...requestOptions },
    }) as RequestHandler[];
    return counted(true, async () => {
      const outcomes = [];
      for (const input of documentedInputs()) outcomes.push((await through(chain(steps), input)) as { error: unknown });
      return outcomes;
    });
  }

  it("to an Ajv instance with other options: eov's own allErrors (false) compiles each operation's request validators", async () => {
    const served = await eovWith({});
    expect(served.misses, precompiledStats.missed.join("; ")).toBe(0);
    const other = await eovWith({ allErrors: false });
    // The same compilations; those of eov's request Ajv, the one instance whose options
    // changed, miss (one or more per operation); the other instances' are served as before.
    expect(other.hits + other.misses).toBe(served.hits);
    expect(other.misses).toBeGreaterThanOrEqual(ids.length);
    expect(other.hits).toBeGreaterThan(0);
    // Both pass every documented request.
    expect([...served.value, ...other.value].filter((outcome) => outcome.error)).toEqual([]);
  });
});
