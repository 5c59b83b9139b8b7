// The peer matrix: the document in tools nobody here wrote, each at its own published defaults
// or with exactly the options docs/document.md#peers names, fed every request example of the
// document (each accepted, and reaching the handler with its fields intact), each example
// with an unknown field `bogus` (refused, or stripped where the tool can only strip), and
// `send_at: 1894698000` (still a number when it reaches the handler). Each row has a
// known-bad twin showing it can fail: the tool's defaults where the docs name an option, or
// the document with the defect the issue found (a coercing `type: "string"` on `send_at`'s
// `now` branch; `type`/`maxLength` beside IpAddress's `anyOf`).
// The zod generators run as their CLIs (child processes): this file is outside the inner
// loop's directories. Postman and Portman: test/postman/newman.test.ts, test/peers/portman.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Fastify, { type FastifyServerOptions } from "fastify";
import openapiGlue from "fastify-openapi-glue";
import { type Context, OpenAPIBackend } from "openapi-backend";
import { describe, expect, it, vi } from "vitest";
import { operations, type OperationId } from "../../generated/operations.js";
import { doc, operation, pathExample, requestExamples, type Node } from "../support/document.js";
import { bin, root, run } from "../tooling/run.js";

/** The operations with a request body, and their examples. */
const bodies = (Object.keys(operations) as OperationId[])
  .filter((operationId) => operation(operationId).requestBody !== undefined)
  .sort()
  .map((operationId) => {
    const { method, path } = operations[operationId];
    const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => pathExample(operationId)[name] ?? name);
    return { operationId, method: method.toUpperCase(), url, examples: requestExamples(operationId) as [string, Node][] };
  });
const notification = requestExamples("createNotification")[0]![1] as Node;
const numericSendAt = { ...notification, send_at: 1894698000 };

/** What a peer did with every example: names refused, names whose body reached the handler altered, the unknown field's fate, `send_at`'s type. */
interface Row {
  refused: string[];
  altered: string[];
  bogus: ("refused" | "stripped" | "kept")[];
  sendAt: string;
}

const names = bodies.flatMap((b) => b.examples.map(([name]) => name));

/** Whether `seen` keeps every field of `sent` with its value and type (a documented default added beside them is no change). */
function keeps(sent: Node, seen: Node): boolean {
  if (Array.isArray(sent)) return Array.isArray(seen) && seen.length === sent.length && sent.every((item, i) => keeps(item, seen[i]));
  if (sent !== null && typeof sent === "object") return seen !== null && typeof seen === "object" && Object.keys(sent).every((key) => keeps(sent[key], seen[key]));
  return sent === seen;
}

/** Sends every example, each with `bogus`, and the numeric `send_at` through `send`, which answers the status and the body its handler saw. */
async function rowOf(send: (b: (typeof bodies)[number], body: Node) => Promise<{ status: number; seen?: Node }>): Promise<Row> {
  const row: Row = { refused: [], altered: [], bogus: [], sendAt: "" };
  for (const b of bodies) {
    for (const [name, value] of b.examples) {
      const { status, seen } = await send(b, structuredClone(value));
      if (status >= 400) row.refused.push(name);
      else if (!keeps(value, seen)) row.altered.push(name);
      const withBogus = await send(b, { ...structuredClone(value), bogus: 1 });
      row.bogus.push(withBogus.status >= 400 ? "refused" : withBogus.seen?.bogus === 1 ? "kept" : "stripped");
    }
  }
  const sent = await send(bodies.find((b) => b.operationId === "createNotification")!, structuredClone(numericSendAt));
  row.sendAt = sent.status >= 400 ? `refused ${sent.status}` : typeof sent.seen?.send_at;
  return row;
}

/** The document with the coercing `now` branch the issue found: `{ type: "string", enum: ["now"] }`. */
function coercingSendAt(): Node {
  const twin = structuredClone(doc);
  const now = twin.components.schemas.NotificationSendAt.oneOf.find((branch: Node) => branch.enum?.[0] === "now");
  now.type = "string";
  return twin;
}

/** The document with IpAddress's branches' `type` and bound repeated beside its `anyOf`, as it was. */
function ipAddressSiblings(): Node {
  const twin = structuredClone(doc);
  Object.assign(twin.components.schemas.IpAddress, { type: "string", maxLength: 45 });
  return twin;
}

/** The document with the targeting rule and the union as two `allOf` members, as it was: generators emit `z.unknown().and(union)`. */
function ruleInAllOf(): Node {
  const twin = structuredClone(doc);
  const { description, if: condition, then, else: otherwise, ...union } = twin.components.schemas.NotificationCreate;
  twin.components.schemas.NotificationCreate = { description, allOf: [{ if: condition, then, else: otherwise }, union] };
  return twin;
}

// Fastify 5 + fastify-openapi-glue, Fastify's own Ajv (@fastify/ajv-compiler) as a user wires it.
/** The options docs/document.md#peers names: `strict: false` (Ajv's strict mode refuses the OpenAPI keyword `discriminator`), `removeAdditional: false` (Fastify's `true` strips a field in one `oneOf` branch before the next one sees it). */
const fastifyNamed: FastifyServerOptions = { ajv: { customOptions: { strict: false, removeAdditional: false } } };

async function fastifyRow(document: Node, options: FastifyServerOptions): Promise<Row | { startup: string }> {
  const app = Fastify(options);
  let seen: Node;
  const handler = async (request: { body: Node }, reply: { code(status: number): { send(body: unknown): unknown } }) => {
    seen = request.body;
    return reply.code(299).send({}); // a status the document does not describe: no response serializer
  };
  const serviceHandlers = Object.fromEntries(Object.keys(operations).map((operationId) => [operationId, handler]));
  await app.register(openapiGlue, { specification: structuredClone(document), serviceHandlers } as never);
  try {
    await app.ready();
  } catch (error) {
    return { startup: (error as Error).message };
  }
  try {
    return await rowOf(async (b, body) => {
      seen = undefined;
      const answer = await app.inject({ method: b.method as "POST", url: b.url, payload: body });
      return { status: answer.statusCode, seen };
    });
  } finally {
    await app.close();
  }
}

// openapi-backend: a validation failure answers 400, an unknown operation 404, a valid request the body its handler sees.
async function backendRow(options: { quick?: boolean }): Promise<Row> {
  let seen: Node;
  const api = new OpenAPIBackend({ definition: structuredClone(doc), ...options });
  api.register({
    validationFail: () => ({ status: 400 }),
    notFound: () => ({ status: 404 }),
    notImplemented: (context: Context) => {
      seen = context.request.requestBody;
      return { status: 299 };
    },
  });
  // Its default mode reports the document's "validation errors" through the console: kept, not printed.
  const said: string[] = [];
  const spies = (["warn", "error", "info"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void said.push(args.map(String).join(" "))),
  );
  try {
    await api.init();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const firstWords = said.map((line) => line.split("\n")[0]!.slice(0, 120));
  if (firstWords.length > 0) print("openapi-backend said", JSON.stringify(options), firstWords.slice(0, 2));
  return rowOf(async (b, body) => {
    seen = undefined;
    const answer = (await api.handleRequest({ method: b.method, path: b.url, body, headers: { "content-type": "application/json" } })) as { status: number };
    return { status: answer.status, seen };
  });
}

// The zod generators, as their CLIs; the output type-checked by tsc and imported.
const scratch = mkdtempSync(join(tmpdir(), "peer-matrix-"));
symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);
const refName = (operationId: OperationId) => String(operation(operationId).requestBody.content["application/json"].schema.$ref).split("/").pop()!;

interface Generator {
  version: string;
  /** The output folder the docs' command writes. */
  dir: string;
  /** The command, as docs/document.md#peers gives it (`openapi.json` in, the file out). */
  args: (out: string) => [string, string[]];
  file: string;
  /** The body schema of an operation in the loaded module. */
  schemaOf: (module: Node, operationId: OperationId) => { safeParse(value: unknown): { success: boolean; data?: unknown } };
}
const version = (name: string): string => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
const generators: Record<string, Generator> = {
  orval: {
    version: version("orval"),
    dir: "orval",
    args: (out) => [bin("orval"), ["--input", "openapi.json", "--output", `${out}/zod.ts`, "--client", "zod"]],
    file: "zod.ts",
    schemaOf: (module, operationId) => module[`${pascal(operationId)}Body`],
  },
  "openapi-zod-client": {
    version: version("openapi-zod-client"),
    dir: "ozc",
    args: (out) => [
      bin("openapi-zod-client"),
      ["openapi.json", "-o", `${out}/schemas.ts`, "-t", "node_modules/openapi-zod-client/src/templates/schemas-only.hbs", "--export-schemas", "--strict-objects"],
    ],
    file: "schemas.ts",
    schemaOf: (module, operationId) => module.schemas[refName(operationId)],
  },
  "@hey-api/openapi-ts": {
    version: version("@hey-api/openapi-ts"),
    dir: "hey",
    args: (out) => [bin("openapi-ts"), ["-i", "openapi.json", "-o", out, "-p", "zod"]],
    file: "zod.gen.ts",
    schemaOf: (module, operationId) => module[`z${pascal(operationId)}Body`],
  },
};

interface Generated {
  generate: string;
  tscErrors: string[];
  load: string;
  row?: Row;
}

/** Generates with `name` from `document`, type-checks the output with tsc, imports it and runs the examples through its body schemas. */
async function generated(name: string, document: Node, label: string): Promise<Generated> {
  const dir = join(scratch, label);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(scratch, "openapi.json"), JSON.stringify(document));
  const generator = generators[name]!;
  const [command, args] = generator.args(label);
  const generation = await run(command, args, scratch);
  const file = join(dir, generator.file);
  const tsc = await run(
    bin("tsc"),
    ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", file],
    scratch,
  );
  const tscErrors = tsc.output.split("\n").filter((line) => /error TS\d+/.test(line));
  let module: Node;
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    return { generate: generation.output.slice(-300), tscErrors, load: (error as Error).message };
  }
  const row = await rowOf(async (b, body) => {
    try {
      const parsed = generator.schemaOf(module, b.operationId as OperationId).safeParse(body);
      return parsed.success ? { status: 200, seen: parsed.data } : { status: 400 };
    } catch (error) {
      return { status: 500, seen: (error as Error).message }; // safeParse threw
    }
  });
  return { generate: generation.code === 0 ? "ok" : generation.output.slice(-300), tscErrors, load: "ok", row };
}

/** The matrix's rows, printed for the docs and the closing note. */
const printed: string[] = [];
const print = (tool: string, options: string, result: unknown) => printed.push(`${tool} | ${options} | ${JSON.stringify(result)}`);

describe("the peer matrix", { timeout: 240_000 }, () => {
  const clean = { refused: [], altered: [], sendAt: "number" };

  it(`Fastify ${version("fastify")} + fastify-openapi-glue ${version("fastify-openapi-glue")}, Fastify's Ajv with the options the docs name: every example accepted intact, bogus refused, send_at a number`, async () => {
    const row = await fastifyRow(doc, fastifyNamed);
    print("fastify", JSON.stringify(fastifyNamed), row);
    expect(row).toMatchObject({ ...clean, bogus: names.map(() => "refused") });
  });

  it("Fastify's known-bad twins: at its defaults it does not start; with only strict off, oneOf branches strip fields; the coercing send_at branch turns the number into a string", async () => {
    const defaults = await fastifyRow(doc, {});
    print("fastify", "defaults", defaults);
    expect(defaults).toMatchObject({ startup: expect.stringContaining('unknown keyword: "discriminator"') });
    const stripping = (await fastifyRow(doc, { ajv: { customOptions: { strict: false } } })) as Row;
    print("fastify", '{"ajv":{"customOptions":{"strict":false}}}', stripping);
    expect(stripping.refused.length + stripping.altered.length).toBeGreaterThan(0);
    expect(stripping.bogus).not.toContain("kept");
    const coercing = (await fastifyRow(coercingSendAt(), fastifyNamed)) as Row;
    print("fastify (coercing send_at twin)", JSON.stringify(fastifyNamed), coercing);
    expect(coercing.sendAt).toBe("string");
  });

  it(`openapi-backend ${version("openapi-backend")} in quick mode, as the docs name it: every example accepted intact, bogus refused, send_at a number; its default mode routes nothing`, async () => {
    const quick = await backendRow({ quick: true });
    print("openapi-backend", '{"quick":true}', quick);
    expect(quick).toMatchObject({ ...clean, bogus: names.map(() => "refused") });
    const defaults = await backendRow({});
    print("openapi-backend", "defaults", defaults);
    expect(defaults.refused).toEqual(names);
  });

  // What each generator's body schemas do with `bogus`: zod's `z.object` strips an unknown key
  // (orval, hey-api at their defaults); openapi-zod-client's `--strict-objects` refuses it.
  const bogusFate: Record<string, Row["bogus"][number]> = { orval: "stripped", "openapi-zod-client": "refused", "@hey-api/openapi-ts": "stripped" };
  // hey-api reads `format: int64` as `z.coerce.bigint()` (its documented mapping): `send_at`
  // reaches the caller as a bigint, so the examples with a numeric `send_at` change type.
  const numericSendAtExamples = names.filter((name) => typeof (requestExamples("createNotification").find(([n]) => n === name)?.[1] as Node)?.send_at === "number");
  const expected: Record<string, Partial<Row>> = {
    orval: { altered: [], sendAt: "number" },
    "openapi-zod-client": { altered: [], sendAt: "number" },
    "@hey-api/openapi-ts": { altered: numericSendAtExamples, sendAt: "bigint" },
  };

  it.each(Object.keys(generators))("%s: the zod output type-checks (0 tsc errors), loads, accepts every example with its fields kept", async (name) => {
    const result = await generated(name, doc, generators[name]!.dir);
    print(`${name} ${generators[name]!.version}`, "as docs/document.md#peers runs it", result);
    expect(result).toMatchObject({ tscErrors: [], load: "ok", row: { refused: [], bogus: names.map(() => bogusFate[name]), ...expected[name] } });
  });

  it("orval's known-bad twin: with IpAddress's type and bound beside its anyOf, its zod output does not type-check or load", async () => {
    const result = await generated("orval", ipAddressSiblings(), "orval-twin");
    print("orval (IpAddress siblings twin)", "", { tscErrors: result.tscErrors.length, first: result.tscErrors[0], load: result.load });
    expect(result.tscErrors.length > 0 || result.load !== "ok").toBe(true);
  });

  it("openapi-zod-client's known-bad twin: with the targeting rule in an allOf beside the union, an unknown field gets through on POST /notifications", async () => {
    const result = await generated("openapi-zod-client", ruleInAllOf(), "ozc-twin");
    print("openapi-zod-client (targeting rule in allOf twin)", "--strict-objects", result);
    expect(result.row?.bogus.slice(0, 4)).toEqual(["kept", "kept", "kept", "kept"]);
  });

  it("prints the matrix", () => {
    console.log(printed.join("\n"));
  });
});
