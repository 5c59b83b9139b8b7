// express-openapi-validator (eov) for a document: one instance per process for the same
// document, base path and response setting, shared by every app over it (a mock beside a
// server, a test's servers). eov validates requests; a handler's success body is checked
// by the layer (server/contract-layer/response-validator.ts, with eov's response Ajv set-up, unless
// turned off) before it is sent, as only those bodies reach `res.json`; credentials are checked before it (server/middleware/security.ts), so its own security step is
// off, and so is its multipart step (the document takes JSON only). Its server URL is the
// layer's base path and it reads `req.url`, so a contract app mounted under a prefix
// (`app.use("/api", …)`) is validated, not skipped.
//
// Two things eov does lazily and per request are moved off the request path here:
// - Compilation. eov builds an operation's Ajv validators on its first request (per request
//   content type: about 0.15-0.25 s a path), so a path's first client paid for them.
//   `warm()` sends every operation a request of its own through eov's steps in process, so
//   its request validators, and the validators of its success bodies, are built before the service reports ready (`ready()`, and `listen()` waits for it).
//   For the bundled document they are not compiled even then: server/contract-layer/precompiled.ts
//   hands eov the functions `npm run generate` wrote (generated/validators.cjs).
// - Route lookup. eov's metadata step compiles a path-to-regexp matcher for every route on
//   every request to find the operation (about 13% of a request's CPU here; upstream pull
//   request cdimascio/express-openapi-validator#1217 would cache them). The layer's router
//   has already found the operation, so once eov has answered an operation's lookup once
//   (the warm-up does it), the layer sets `req.openapi` itself from that answer and the path
//   parameters of its own compiled pattern, and runs only eov's request step.
//   A consumer installs eov from the registry, so this is done here, not as a patch to eov.
import { createHash } from "node:crypto";
import express, { type Request, type RequestHandler, type Response } from "express";
import OpenApiValidator from "express-openapi-validator";
// Before any schema is compiled: closed bodies refuse keys named after Object.prototype members.
import "./ajv-unevaluated.js";
// Before eov creates an Ajv instance: its compilations are served precompiled where generated/ has them.
import "./precompiled.js";
import { operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import { dropProse } from "../document/prose.js";
import { routedPath } from "../middleware/request-path.js";
import { pathPattern } from "../middleware/path-pattern.js";
import { responseValidator, type ResponseValidator } from "./response-validator.js";
import { chain } from "./router.js";

/** What eov's metadata step puts on `req.openapi` for an operation, but the path parameters. */
interface RouteTemplate {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  serial: number;
  _responseSchema?: unknown;
}

interface Instance {
  /** eov's own steps, its metadata step wrapped to remember each operation's answer. */
  full: RequestHandler;
  /** eov's request step alone, for a request whose `req.openapi` the layer set; undefined if eov's steps are not the ones this knows. */
  checks: RequestHandler | undefined;
  /** Each operation's lookup answer (`GET /widgets/{id}` → template), once eov gave it. */
  templates: Map<string, RouteTemplate>;
  /** The validator's steps, one by one, for the warm-up. */
  steps: RequestHandler[];
  /** The layer's check of success bodies (server/contract-layer/response-validator.ts); undefined when responses are not validated. */
  responses: ResponseValidator | undefined;
  warmed?: Promise<void>;
}

export interface DocumentValidator {
  /** The validation steps of one operation (`hasBody`: it takes a request body): eov's, with the route lookup done by the layer once eov answered it. */
  operation(method: string, path: string, hasBody: boolean): RequestHandler;
  /** Throws ResponseValidationFailed when a handler's 2xx body is off the document (a no-op when responses are not validated). */
  checkResponse(operationId: string, status: number, body: unknown): void;
  /** Builds every operation's request and response validators; resolves once all are. Safe to call again. */
  warm(): Promise<void>;
}

const maxInstances = 20;
const instances = new Map<string, Instance>();
const fingerprints = new WeakMap<ApiDocument, string>();

/** A digest of the document's content: apps load their own copy, so identity cannot tell two copies of one document apart. */
function fingerprint(document: ApiDocument): string {
  let digest = fingerprints.get(document);
  if (!digest) fingerprints.set(document, (digest = createHash("sha256").update(JSON.stringify(document)).digest("hex")));
  return digest;
}

const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The validator of `document` under `basePath`: built on first use (a request or `warm()`), once per process for the same arguments. */
export function documentValidator(document: ApiDocument, basePath: string, validateResponses: boolean): DocumentValidator {
  let own: Instance | undefined;
  const instance = (): Instance => {
    if (own) return own;
    const key = JSON.stringify([fingerprint(document), basePath, validateResponses]);
    own = instances.get(key);
    if (!own) {
      own = buildInstance(document, basePath, validateResponses);
      // A process serves one document or a few (tests vary it): the oldest goes past the cap.
      if (instances.size >= maxInstances) instances.delete(instances.keys().next().value!);
      instances.set(key, own);
    }
    return own;
  };
  return {
    operation: (method, path, hasBody) => operationStep(instance, basePath, method, path, hasBody),
    checkResponse: (operationId, status, body) => instance().responses?.check(operationId, status, body),
    warm: () => {
      const built = instance();
      return (built.warmed ??= warmUp(built, document, basePath));
    },
  };
}

/**
 * eov keys the validators it compiles by the request's Content-Type with its parameters, so
 * `application/json; charset=UTF-8`, or a parameter a client makes up, compiled (and kept)
 * a new set of validators: one request per made-up value cost ~0.1-0.2 s of CPU and memory
 * for good. The JSON reader before this step has read the body (and refused a charset that
 * is not UTF), so eov is shown the bare media type; an operation without a body reads none,
 * so its requests' Content-Type is dropped (eov's "no body" key). Other media types keep
 * theirs: eov answers them 415 before compiling anything.
 */
function normalizeContentType(req: Request, hasBody: boolean): void {
  const type = req.headers["content-type"];
  if (type === undefined) return;
  if (!hasBody) delete req.headers["content-type"];
  else if (type.split(";")[0]!.trim().toLowerCase() === "application/json") req.headers["content-type"] = "application/json";
}

function operationStep(instance: () => Instance, basePath: string, method: string, path: string, hasBody: boolean): RequestHandler {
  const key = operationKey(method, path);
  const pattern = pathPattern(basePath, path);
  const names = [...path.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1]!);
  return (req, res, next) => {
    normalizeContentType(req, hasBody);
    const built = instance();
    const template = built.templates.get(key);
    const match = template && built.checks ? pattern.exec(routedPath(req)) : null;
    if (!match) return built.full(req, res, next);
    const pathParams: Record<string, string> = {};
    try {
      names.forEach((name, index) => {
        pathParams[name] = decodeURIComponent(match[index + 1]!);
      });
    } catch {
      // What eov's own lookup answers for a path parameter that is not valid percent-encoding.
      return next(new OpenApiValidator.error.BadRequest({ path: req.path, message: "malformed uri'" }));
    }
    (req as { openapi?: unknown }).openapi = { ...template, pathParams };
    req.params = pathParams;
    built.checks!(req, res, next);
  };
}

/**
 * The document as eov needs it: without the examples, code samples, response headers and
 * prose (summaries, descriptions, titles), which it never reads, so the precompiled
 * validators' digests (over its `paths` and `components`) change with what eov reads only.
 * Ajv walks every object of a schema's root when it adds one, and eov gives some validators
 * the whole document as their root (`paths` and `components`). A fresh copy: eov mutates
 * what it is given.
 */
export function documentForValidator(document: ApiDocument, basePath: string): ApiDocument {
  const copy = structuredClone({ ...document, servers: [{ url: basePath || "/" }] }) as ApiDocument & { components?: Record<string, Record<string, unknown>> };
  /** A response, request body or parameter object: its own examples and its media types'; a response's headers. */
  const slim = (object: unknown) => {
    if (!object || typeof object !== "object") return;
    const holder = object as Record<string, unknown>;
    for (const key of ["example", "examples", "headers"]) delete holder[key];
    for (const media of Object.values((holder.content as Record<string, Record<string, unknown>> | undefined) ?? {})) {
      delete media.example;
      delete media.examples;
    }
  };
  delete copy.components?.examples;
  for (const group of ["responses", "requestBodies", "parameters"]) for (const object of Object.values(copy.components?.[group] ?? {})) slim(object);
  for (const item of Object.values(copy.paths ?? {}) as Record<string, unknown>[]) {
    for (const parameter of (item.parameters as unknown[] | undefined) ?? []) slim(parameter);
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== "object" || Array.isArray(operation)) continue;
      const op = operation as { "x-codeSamples"?: unknown; parameters?: unknown[]; requestBody?: unknown; responses?: Record<string, unknown> };
      delete op["x-codeSamples"];
      for (const parameter of op.parameters ?? []) slim(parameter);
      slim(op.requestBody);
      for (const response of Object.values(op.responses ?? {})) slim(response);
    }
  }
  // Only response headers referred to them.
  if (!JSON.stringify(copy).includes('"#/components/headers/')) delete copy.components?.headers;
  return dropProse(copy);
}

/** eov's options, but the document (`apiSpec`). */
export const validatorOptions = {
  useRequestUrl: true,
  validateApiSpec: false, // linted in CI; skipping it saves start-up time
  // coerceTypes false keeps JSON bodies strict ("true" is not a boolean); eov coerces
  // path, query and header strings on its own. allErrors: one errors[] item per value.
  validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
  // Success bodies are checked by the layer with eov's response Ajv set-up (server/contract-layer/response-validator.ts).
  validateResponses: false,
  validateSecurity: false,
  // No multipart operation: its step would parse every request's content type for nothing.
  fileUploader: false,
} as const;

function buildInstance(document: ApiDocument, basePath: string, validateResponses: boolean): Instance {
  const copy = documentForValidator(document, basePath);
  const steps = OpenApiValidator.middleware({ apiSpec: copy as never, ...validatorOptions }) as RequestHandler[];
  const templates = new Map<string, RouteTemplate>();
  const remember: RequestHandler = (req, _res, next) => {
    const openapi = (req as { openapi?: RouteTemplate & { openApiRoute: string } }).openapi;
    if (openapi?.schema) {
      const { expressRoute, openApiRoute, schema, serial, _responseSchema } = openapi;
      templates.set(operationKey(req.method, openApiRoute.slice((basePath || "").length)), { expressRoute, openApiRoute, schema, serial, _responseSchema });
    }
    next();
  };
  const named = (name: string) => steps.filter((step) => step.name === name);
  const names = steps.map((step) => step.name);
  const expected = ["pathParamsMiddleware", "metadataMiddleware", "securityMiddleware", "requestMiddleware"];
  const known = names.length === expected.length && expected.every((name, index) => names[index] === name);
  const withRemember = steps.flatMap((step) => (step.name === "metadataMiddleware" ? [step, remember] : [step]));
  return {
    full: chain(known ? withRemember : steps),
    // eov's path-parameter step only serves Express route parameters (the layer has none), and its security step is off.
    checks: known ? chain(named("requestMiddleware")) : undefined,
    templates,
    steps: known ? withRemember : steps,
    responses: validateResponses ? responseValidator(documentForValidator(document, basePath)) : undefined,
  };
}

/** A stand-in request for the warm-up, on a private Express app (eov reads `req.app`'s settings). */
const warmApp = express();
warmApp.enable("case sensitive routing");

/** Runs one step; resolves when it calls `next` (with or without an error). */
function step(handler: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve) => {
    try {
      const returned = handler(req, res, () => resolve()) as unknown;
      if (returned instanceof Promise) returned.then(undefined, () => resolve());
    } catch {
      resolve();
    }
  });
}

/** The value of a media type's or parameter's first example (`example`, or the first of `examples`), or undefined. */
function exampleOf(document: ApiDocument, holder: unknown): unknown {
  if (!holder || typeof holder !== "object") return undefined;
  const own = resolveRef<{ example?: unknown; examples?: Record<string, unknown> }>(document, holder as never) ?? {};
  if (own.example !== undefined) return own.example;
  const first = Object.values(own.examples ?? {})[0];
  return first === undefined ? undefined : resolveRef<{ value?: unknown }>(document, first as never).value;
}

/**
 * Every operation's request through eov's steps, as a client sends it (the path
 * parameters', request body's and first success response's documented examples; the one
 * Content-Type eov is shown: none, or `application/json`, see normalizeContentType), then
 * its first success example through the layer's response check: running the validators on
 * valid data too means a path's first request also finds that code warm. Nothing is
 * written. Failed validation (an operation without examples gets `{}`) is expected and ignored.
 */
async function warmUp(instance: Instance, document: ApiDocument, basePath: string): Promise<void> {
  instance.responses?.warm();
  for (const { operationId, method, path, operation } of operationsOf(document)) {
    const parameters = (operation.parameters ?? []).map((parameter) => resolveRef<{ in?: string; name?: string }>(document, parameter as never));
    const url =
      basePath +
      path.replace(/\{([^}/]+)\}/g, (_, name: string) => {
        const example = exampleOf(
          document,
          parameters.find((parameter) => parameter.in === "path" && parameter.name === name),
        );
        return encodeURIComponent(typeof example === "string" ? example : "x");
      });
    const requestBody = operation.requestBody ? resolveRef<{ content?: Record<string, unknown> }>(document, operation.requestBody as never) : undefined;
    const req = Object.create(warmApp.request) as Request;
    const body = requestBody ? (exampleOf(document, requestBody.content?.["application/json"]) ?? {}) : undefined;
    Object.assign(req, { method: method.toUpperCase(), url, originalUrl: url, baseUrl: "", params: {}, body: structuredClone(body) });
    req.headers = requestBody ? { "content-type": "application/json" } : {};
    const res = Object.create(warmApp.response) as Response;
    res.locals = {};
    for (const handler of instance.steps) await step(handler, req, res);
    const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
    const response = success ? resolveRef<{ content?: Record<string, unknown> }>(document, success[1] as never) : undefined;
    const example = response ? exampleOf(document, Object.values(response.content ?? {})[0]) : undefined;
    try {
      if (success) instance.responses?.check(operationId, Number(success[0]), example ?? {});
    } catch {
      // ResponseValidationFailed for the stand-in `{}`, as expected.
    }
  }
}
