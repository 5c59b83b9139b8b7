// Writes the Postman collection and its environments from the bundled document, on every
// `npm run generate` (generated/postman/, committed and drift-checked like the rest of
// generated/). A small generator rather than openapi-to-postmanv2, which keeps only the
// first request example and one of the two API-key headers POST /notifications needs:
// here every operation gets one request per named request example, path parameters take
// the document's examples, bearer operations send `Authorization: Bearer {{apiKey}}`, the
// key-pair operation both `X-Api-Key` and `X-Api-Secret`, and each request tests what the
// document says of its success: the status, a JSON content type, every header the response
// requires, and the body against the response's schema (inlined, annotations left out, run
// by the Postman sandbox's Ajv 6 as `pm.response.to.have.jsonSchema`; the formats Ajv 6 does
// not know, such as int32, are named unknown). Each server of the document is an
// environment defining every variable the collection uses (baseUrl, apiKey, apiSecret):
// the local ones with the demo application that owns the document's examples, production
// with empty values to fill in.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deref, operationEntries } from "../server/document/walk.js";

type Node = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc: Node = JSON.parse(readFileSync("generated/openapi.json", "utf8"));
const seed: Node = JSON.parse(readFileSync("server/seed/demo.json", "utf8"));
const out = "generated/postman";

const resolve = (node: Node): Node => deref(doc, node);

/** The success status the document gives an operation (its one 2XX). */
const successOf = (op: Node): number => Number(Object.keys(op.responses).find((s) => /^2\d\d$/.test(s)));

/** Keywords that only annotate, left out of the schemas the tests carry. */
const annotations = new Set(["description", "title", "examples", "example", "$comment", "discriminator", "readOnly", "writeOnly", "deprecated"]);
/** The formats Ajv 6 (the Postman sandbox's) checks; any other is named unknown to it. */
const ajv6Formats = new Set([
  "date",
  "time",
  "date-time",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
]);

/** A schema with every `$ref` replaced by what it names (a `$ref` beside other keywords as one more `allOf` member) and no annotations. */
function inline(node: Node): Node {
  if (Array.isArray(node)) return node.map(inline);
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node;
  const own = Object.fromEntries(
    Object.entries(rest).flatMap(([key, value]) =>
      annotations.has(key) || key.startsWith("x-")
        ? []
        : // A `properties` map's keys are field names (a field may be named `title`), not keywords.
          [[key, key === "properties" ? Object.fromEntries(Object.entries<Node>(value as Node).map(([name, schema]) => [name, inline(schema)])) : inline(value)]],
    ),
  );
  if ($ref === undefined) return own;
  const target = inline(resolve({ $ref }));
  return Object.keys(own).length === 0 ? target : { ...own, allOf: [...(own.allOf ?? []), target] };
}

/** Every `format` a schema names. */
const formatsIn = (node: Node): string[] =>
  Array.isArray(node)
    ? node.flatMap(formatsIn)
    : node && typeof node === "object"
      ? [...(typeof node.format === "string" ? [node.format] : []), ...Object.values(node).flatMap(formatsIn)]
      : [];

/** The Postman test script of a request: what the document says of the operation's success. */
function testsOf(method: string, path: string, op: Node): string[] {
  const status = successOf(op);
  const response = resolve(op.responses[String(status)]);
  const at = `${method.toUpperCase()} ${path}`;
  const exec = [`pm.test("${at} answers ${status}", function () {`, `  pm.response.to.have.status(${status});`, "});"];
  const required = Object.entries<Node>(response.headers ?? {})
    .filter(([, header]) => resolve(header).required === true)
    .map(([name]) => name);
  if (required.length > 0) {
    exec.push(`pm.test("${at} sends ${required.join(", ")}", function () {`, ...required.map((name) => `  pm.response.to.have.header(${JSON.stringify(name)});`), "});");
  }
  const media = response.content?.["application/json"];
  if (media) {
    const schema = inline(media.schema);
    const unknownFormats = [...new Set(formatsIn(schema))].filter((format) => !ajv6Formats.has(format)).sort();
    exec.push(
      `pm.test("${at} answers JSON", function () {`,
      '  pm.expect(pm.response.headers.get("Content-Type")).to.include("application/json");',
      "});",
      `pm.test("${at} answers a body of the documented schema", function () {`,
      `  pm.response.to.have.jsonSchema(${JSON.stringify(schema)}, ${JSON.stringify({ unknownFormats })});`,
      "});",
    );
  }
  return exec;
}

function headersOf(op: Node): { key: string; value: string }[] {
  const schemes = Object.keys(op.security?.[0] ?? {}).map((name) => ({ name, ...doc.components.securitySchemes[name] }));
  return schemes.map((s) =>
    s.type === "http" && s.scheme === "bearer"
      ? { key: "Authorization", value: "Bearer {{apiKey}}" }
      : { key: s.name, value: s.name.toLowerCase().includes("secret") ? "{{apiSecret}}" : "{{apiKey}}" },
  );
}

function itemsOf(path: string, method: string, op: Node): Node[] {
  const parameters = (op.parameters ?? []).map(resolve);
  const pathValues = Object.fromEntries(parameters.filter((p: Node) => p.in === "path").map((p: Node) => [p.name, String(p.example)]));
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((s) => s.replace(/^\{(.+)\}$/, (_, name) => pathValues[name] ?? `{${name}}`));
  const url = { raw: `{{baseUrl}}/${segments.join("/")}`, host: ["{{baseUrl}}"], path: segments };
  const test = { listen: "test", script: { type: "text/javascript", exec: testsOf(method, path, op) } };
  const content = resolve(op.requestBody)?.content?.["application/json"];
  const examples: [string | undefined, Node][] = content
    ? Object.entries<Node>(content.examples ?? {}).map(([name, e]) => [name, resolve(e).value])
    : [[undefined, undefined]];
  return examples.map(([name, body]) => ({
    name: `${op.summary}${name ? ` (${resolve(content.examples[name]).summary ?? name})` : ""}`,
    request: {
      method: method.toUpperCase(),
      header: [...headersOf(op), { key: "Accept", value: "application/json" }, ...(body === undefined ? [] : [{ key: "Content-Type", value: "application/json" }])],
      url,
      description: `${op.operationId}${name ? `, request example \`${name}\`` : ""}. ${op.description ?? ""}`.trim(),
      ...(body === undefined ? {} : { body: { mode: "raw", raw: JSON.stringify(body, null, 2), options: { raw: { language: "json" } } } }),
    },
    event: [test],
  }));
}

const folders = new Map<string, Node[]>();
// Every operation, on any of the eight methods of a path item.
for (const { path, method, operation: op } of operationEntries(doc)) {
  const tag = op.tags?.[0] ?? "Other";
  folders.set(tag, [...(folders.get(tag) ?? []), ...itemsOf(path, method, op)]);
}

const collection = {
  info: {
    name: doc.info.title,
    description: `Generated from the OpenAPI document ${doc.info.version} by \`npm run generate\` (scripts/postman.ts); do not edit. Pick an environment: ${doc.servers.map((s: Node) => s.description).join(", ")}.`,
    version: doc.info.version,
    schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
  },
  item: [...folders].map(([name, item]) => ({ name, item })),
};

const exampleOwner = resolve(Object.values<Node>(resolve(resolve(doc.paths["/widgets/{id}"].get.responses["200"]).content["application/json"].examples))[0]).value.result
  .application_id;
const owner = seed.applications.find((a: Node) => a.id === exampleOwner);
const demo = owner.credentials.find((c: Node) => c.api_key && c.api_secret);

const slug = (description: string) =>
  description.split(/[ ,(]/)[0]!.toLowerCase() + (description.toLowerCase().includes("mock") ? "-mock" : description.toLowerCase().includes("server") ? "-server" : "");
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "collection.json"), `${JSON.stringify(collection, null, 2)}\n`);
for (const server of doc.servers) {
  const local = server.url.startsWith("http://127.0.0.1");
  const name = slug(server.description);
  const environment = {
    name: `${doc.info.title}: ${server.description}`,
    values: [
      { key: "baseUrl", value: server.url, type: "default", enabled: true },
      { key: "apiKey", value: local ? demo.api_key : "", type: "secret", enabled: true },
      { key: "apiSecret", value: local ? demo.api_secret : "", type: "secret", enabled: true },
    ],
  };
  writeFileSync(join(out, `${name}.postman_environment.json`), `${JSON.stringify(environment, null, 2)}\n`);
}
