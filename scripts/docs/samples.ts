// The request samples of each operation, for each request example and each server, written at
// build time: curl, JavaScript fetch, Python (http.client, the standard library) and Go
// (net/http) by httpsnippet from one description of the request (HAR), and the TypeScript
// client's from the operation's `client.ts` (type-checked and run by test/samples/). Every
// sample sends the same request: the path and query values of `client.ts`'s call, the
// example's body, the credentials of the operation's own security scheme. Against a local
// server the samples carry the demo application's keys, so they answer when pasted; against
// production they carry placeholders named by what they are (YOUR_API_KEY, YOUR_API_SECRET).
import { HTTPSnippet, type HarRequest, type TargetId } from "httpsnippet";
import type { Operation, Server } from "./operation.js";
import { samplesPerExample, withValues } from "./typescript-samples.js";

export const languages = [
  // prettifyJson: a body one field a line, readable beside the example it sends.
  { id: "curl", label: "curl", target: "shell", client: "curl", options: { prettifyJson: true } },
  { id: "javascript", label: "JavaScript", target: "javascript", client: "fetch" },
  { id: "python", label: "Python", target: "python", client: "python3" },
  { id: "go", label: "Go", target: "go", client: "native" },
  { id: "typescript", label: "TypeScript client", target: "", client: "" },
] as const;
export type LanguageId = (typeof languages)[number]["id"];

/** One request sample: for an example (its key, "" without a body) on a server (its URL). */
export interface Sample {
  language: LanguageId;
  example: string;
  server: string;
  source: string;
}

/** The request an operation's samples send, as HAR (what httpsnippet reads). */
function harOf(operation: Operation, server: Server, body: unknown): HarRequest {
  const { path, query } = operation.sampleParams;
  const url = `${server.url}${operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path?.[name] ?? `{${name}}`)))}`;
  const headers = operation.security.map((scheme) => ({ name: scheme.header, value: scheme.value(server.credentials) }));
  return {
    method: operation.method,
    url,
    httpVersion: "HTTP/1.1",
    cookies: [],
    headers: [...headers, ...(body === undefined ? [] : [{ name: "Content-Type", value: "application/json" }])],
    queryString: Object.entries(query ?? {}).map(([name, value]) => ({ name, value: String(value) })),
    headersSize: -1,
    bodySize: -1,
    ...(body === undefined ? {} : { postData: { mimeType: "application/json", text: JSON.stringify(body) } }),
  } as HarRequest;
}

/**
 * httpsnippet's fetch sample prints `console.log(data)`, which Node shows two levels deep
 * (`domain: [Object]`); the whole answer is printed instead.
 */
const printWhole = (source: string) => {
  const line = "console.log(data);";
  if (!source.includes(line)) throw new Error(`httpsnippet's fetch sample no longer prints with "${line}":\n${source}`);
  return source.replace(line, "console.log(JSON.stringify(data, null, 2));");
};

/** Every sample of an operation: each language × each request example (or none) × each server. */
export function samplesOf(operation: Operation, servers: Server[]): Sample[] {
  const examples: [string, unknown][] = operation.requestExamples.length ? operation.requestExamples.map((e) => [e.key, e.value]) : [["", undefined]];
  const client = operation.clientSample;
  const perExample = operation.requestExamples.length
    ? samplesPerExample({ lang: "TypeScript", label: "TypeScript client", source: client }, examples)
    : [{ example: "", source: client }];
  return servers.flatMap((server) =>
    examples.flatMap(([example, body]) => {
      const snippet = new HTTPSnippet(harOf(operation, server, body));
      const generated = languages
        .filter((language) => language.target)
        .map((language) => {
          const text = snippet.convert(language.target as TargetId, language.client, "options" in language ? language.options : undefined) as string;
          return { language: language.id, example, server: server.url, source: language.id === "javascript" ? printWhole(text) : text };
        });
      const typescript = perExample.find((sample) => sample.example === example)!.source;
      const values = { BASE_URL: server.url, API_KEY: server.credentials.apiKey, API_SECRET: server.credentials.apiSecret };
      return [...generated, { language: "typescript" as const, example, server: server.url, source: withValues(typescript, values) }];
    }),
  );
}
