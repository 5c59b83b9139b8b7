// The document as the page reads it: each operation with what a reader needs (its security
// scheme's headers, parameters, request body and examples, every response with its headers,
// fields and examples, the rules a schema cannot state), and the servers with the credentials
// the samples and the console start with. Pure functions over the bundled document; the HTML
// (page.ts) and the Markdown (llms.ts) are written from this model.
import { deref, operationEntries } from "../../server/document/walk.js";
import { type Shape, shapeOf } from "./fields.js";
import { slug } from "./markdown.js";
import { paramsOfSample } from "./typescript-samples.js";

type Node = Record<string, any>;

/** Where a placeholder stands for a credential the reader fills in (production). */
export const placeholders = { apiKey: "YOUR_API_KEY", apiSecret: "YOUR_API_SECRET" } as const;

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface Server {
  url: string;
  description: string;
  /** The demo application's keys (a local server knows them), or the placeholders. */
  credentials: Credentials;
  demo: boolean;
}

export interface SecurityScheme {
  /** The scheme's name in the document (`bearerAuth`, `apiKey`, `apiSecret`). */
  name: string;
  /** The header it is sent in. */
  header: string;
  /** Which credential it carries. */
  credential: keyof Credentials;
  /** The header's value for these credentials. */
  value(credentials: Credentials): string;
  description: string;
}

export interface Example {
  key: string;
  summary: string;
  description: string;
  value: unknown;
}

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
  shape: Shape;
  example: unknown;
  deprecated?: { at?: string; sunset?: string };
}

export interface Response {
  status: string;
  description: string;
  /** `component`: the name under components/headers when the header is a `$ref` there. */
  headers: { name: string; description: string; required: boolean; type: string; component?: string }[];
  contentType?: string;
  shape?: Shape;
  /** The name under components/schemas when the body's schema is a `$ref` there. */
  schemaName?: string;
  examples: Example[];
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  /** The operation's id on the page: `tag/notifications/POST/notifications`. */
  route: string;
  deprecated?: { at?: string; sunset?: string };
  security: SecurityScheme[];
  parameters: Parameter[];
  requestBody?: { description: string; required: boolean; contentType: string; shape: Shape };
  requestExamples: Example[];
  responses: Response[];
  crossFieldRules: { id: string; description: string; status: number; code: string }[];
  /** The operation's TypeScript client sample (`openapi/code_samples/<operationId>/client.ts`). */
  clientSample: string;
  /** The path and query values its samples and console send (those of the client sample). */
  sampleParams: { path?: Record<string, unknown>; query?: Record<string, unknown> };
}

export const tagRoute = (tag: string) => `tag/${slug(tag)}`;

/** The security schemes an operation's first requirement names, as headers. */
function securityOf(document: Node, operation: Node): SecurityScheme[] {
  const requirement = (operation.security ?? document.security ?? [])[0] ?? {};
  return Object.keys(requirement).map((name) => {
    const scheme = document.components.securitySchemes[name];
    if (scheme.type === "http" && scheme.scheme === "bearer")
      return { name, header: "Authorization", credential: "apiKey", value: (c: Credentials) => `Bearer ${c.apiKey}`, description: scheme.description ?? "" };
    if (scheme.type === "apiKey" && scheme.in === "header") {
      const credential: keyof Credentials = /secret/i.test(scheme.name) ? "apiSecret" : "apiKey";
      return { name, header: scheme.name, credential, value: (c: Credentials) => c[credential], description: scheme.description ?? "" };
    }
    throw new Error(`security scheme ${name} (${scheme.type}) has no rendering on the docs page`);
  });
}

function examplesOf(document: Node, content: Node | undefined): Example[] {
  return Object.entries<Node>(content?.examples ?? {}).map(([key, node]) => {
    const example = deref<Node>(document, node);
    return { key, summary: example.summary ?? key, description: example.description ?? "", value: example.value };
  });
}

/** `Problem` for `{ $ref: "#/components/schemas/Problem" }` (kind `schemas`). */
const componentName = (node: Node | undefined, kind: string): string | undefined => {
  const ref = node?.$ref as string | undefined;
  return ref?.startsWith(`#/components/${kind}/`) ? ref.slice(`#/components/${kind}/`.length) : undefined;
};

const deprecation = (node: Node) => (node.deprecated ? { at: node["x-deprecated-at"], sunset: node["x-sunset"] } : undefined);

export function operationsOf(document: Node): Operation[] {
  return operationEntries<Node>(document).map(({ path, method, operation }) => {
    const tag = operation.tags?.[0] ?? "Other";
    const body = operation.requestBody ? deref<Node>(document, operation.requestBody) : undefined;
    const bodyContent = body?.content?.["application/json"];
    const client = (operation["x-codeSamples"] ?? []).find((sample: Node) => sample.lang === "TypeScript")?.source as string | undefined;
    if (!client) throw new Error(`${operation.operationId} has no TypeScript x-codeSample (openapi/code_samples/<operationId>/client.ts)`);
    const parameters = [...(deref<Node>(document, document.paths[path]).parameters ?? []), ...(operation.parameters ?? [])].map((node: Node) => {
      const parameter = deref<Node>(document, node);
      return {
        name: parameter.name,
        in: parameter.in,
        required: Boolean(parameter.required),
        description: parameter.description ?? "",
        shape: shapeOf(document, parameter.schema),
        example: parameter.example ?? Object.values<Node>(parameter.examples ?? {})[0]?.value,
        ...(deprecation(parameter) ? { deprecated: deprecation(parameter) } : {}),
      };
    });
    const responses = Object.entries<Node>(operation.responses).map(([status, node]) => {
      const response = deref<Node>(document, node);
      const [contentType, content] = Object.entries<Node>(response.content ?? {})[0] ?? [];
      return {
        status,
        description: response.description ?? "",
        headers: Object.entries<Node>(response.headers ?? {}).map(([name, headerNode]) => {
          const header = deref<Node>(document, headerNode);
          const component = componentName(headerNode, "headers");
          return {
            name,
            description: header.description ?? "",
            required: Boolean(header.required),
            type: shapeOf(document, header.schema ?? {}).type,
            ...(component ? { component } : {}),
          };
        }),
        ...(content ? { contentType, shape: shapeOf(document, content.schema) } : {}),
        ...(componentName(content?.schema, "schemas") ? { schemaName: componentName(content?.schema, "schemas") } : {}),
        examples: examplesOf(document, content),
      };
    });
    return {
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      summary: operation.summary ?? `${method.toUpperCase()} ${path}`,
      description: operation.description ?? "",
      tag,
      route: `${tagRoute(tag)}/${method.toUpperCase()}${path}`,
      ...(deprecation(operation) ? { deprecated: deprecation(operation) } : {}),
      security: securityOf(document, operation),
      parameters,
      ...(bodyContent
        ? {
            requestBody: {
              description: body!.description ?? "",
              required: Boolean(body!.required),
              contentType: "application/json",
              shape: shapeOf(document, bodyContent.schema),
            },
          }
        : {}),
      requestExamples: examplesOf(document, bodyContent),
      responses,
      crossFieldRules: (operation["x-cross-field-rules"] ?? []).map((rule: Node) => ({
        id: rule.id,
        description: rule.description,
        status: rule.status,
        code: rule.code,
      })),
      clientSample: client,
      sampleParams: paramsOfSample(client),
    };
  });
}

/** The document's tags in its order, each with its description and operations. */
export function tagsOf(document: Node, operations: Operation[]): { name: string; description: string; route: string; operations: Operation[] }[] {
  const names = [...new Set([...(document.tags ?? []).map((t: Node) => t.name as string), ...operations.map((o) => o.tag)])];
  return names
    .map((name) => ({
      name,
      description: (document.tags ?? []).find((t: Node) => t.name === name)?.description ?? "",
      route: tagRoute(name),
      operations: operations.filter((o) => o.tag === name),
    }))
    .filter((tag) => tag.operations.length > 0);
}

/**
 * The document's servers, the local mock first (where the samples and the console start), each
 * with the credentials the page presets: the demo application's for a server the Postman
 * environment of that server gives keys (the local mock and the local reference server, both
 * seeded with it), the placeholders otherwise (production).
 */
export function serversOf(document: Node, environments: { values: { key: string; value: string }[] }[], first: string): Server[] {
  const servers = (document.servers as Node[]).map((server) => {
    const environment = environments.find((e) => e.values.some((v) => v.key === "baseUrl" && v.value === server.url));
    const value = (key: string) => environment?.values.find((v) => v.key === key)?.value ?? "";
    const demo = value("apiKey") !== "" && value("apiSecret") !== "";
    return {
      url: server.url as string,
      description: (server.description as string | undefined) ?? server.url,
      credentials: demo ? { apiKey: value("apiKey"), apiSecret: value("apiSecret") } : { ...placeholders },
      demo,
    };
  });
  if (!servers.some((s) => s.url === first)) throw new Error(`the document no longer lists the server ${first}`);
  return servers.sort((a, b) => Number(b.url === first) - Number(a.url === first));
}

export interface Shared {
  /** Response bodies used by more than one response, by schema name. */
  schemas: Map<string, Shape>;
  /** Response headers used by more than one response, by component name. */
  headers: Map<string, { name: string; description: string; type: string }>;
}

/**
 * What many responses share (the problem body of every error, the rate-limit headers of every
 * answer): the page describes each once, and each response links to it instead of repeating it.
 */
export function sharedOf(operations: Operation[]): Shared {
  const responses = operations.flatMap((o) => o.responses);
  const schemas = new Map<string, Shape>();
  const headers = new Map<string, { name: string; description: string; type: string }>();
  const count = (names: (string | undefined)[]) => names.reduce((m, n) => (n ? m.set(n, (m.get(n) ?? 0) + 1) : m), new Map<string, number>());
  const schemaUses = count(responses.map((r) => r.schemaName));
  const headerUses = count(responses.flatMap((r) => r.headers.map((h) => h.component)));
  for (const r of responses) {
    if (r.schemaName && r.shape && schemaUses.get(r.schemaName)! > 1) schemas.set(r.schemaName, r.shape);
    for (const h of r.headers) if (h.component && headerUses.get(h.component)! > 1) headers.set(h.component, h);
  }
  return { schemas, headers };
}

/** The id of a shared model or header on the page. */
export const modelRoute = (name: string) => `model/${slug(name)}`;
export const headerRoute = (name: string) => `header/${slug(name)}`;
