// The entry on AWS Lambda: docs/backend.md's two recipes (test/express-entry/serverless/,
// each in the page word for word) are imported as the platform imports a function and
// invoked as it invokes one, with the events API Gateway builds (a REST API's payload 1.0
// and an HTTP API's 2.0: test/support/lambda-events.ts). Every operation's valid request,
// and the bodies the layer must refuse (malformed JSON, over 100 kB, another media type or
// charset), must get the status and problem code the same service gives under listen(),
// through serverless-http and @codegenie/serverless-express as npm installs them today and
// through the majors before them (serverless-http 3 leaves the body on a stream that cannot
// be read; serverless-express 5 needs Node 24, so Node 22 services run 4).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { configure as serverlessExpress4 } from "serverless-express4";
import serverlessHttp3 from "serverless-http3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractApp, listen, type Listening } from "../../server/contract-layer/index.js";
import { appA } from "../support/demo.js";
import { httpApiEvent, lambdaContext, restApiEvent, type HttpRequest } from "../support/lambda-events.js";
import { credentialsFor, operationIds, validRequest } from "../support/requests.js";
import { db } from "./serverless/db.js";
import { handlers } from "./serverless/handlers/index.js";
import { handler as serverlessExpressRecipe } from "./serverless/serverless-express.js";
import { handler as serverlessHttpRecipe } from "./serverless/serverless-http.js";

const recipes = ["serverless-http", "serverless-express"] as const;
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), "utf8")) as { version: string }).version;

/** The service of the recipes, built the same way, for listen() and the adapters' earlier majors. */
const service = () =>
  createContractApp({
    handlers,
    authenticate: {
      authenticateBearer: async (apiKey) => db.applicationByKey(apiKey),
      authenticateKeyPair: async (apiKey, apiSecret) => db.applicationByPair(apiKey, apiSecret),
    },
    unmatched: "problem",
  });

type LambdaHandler = (event: unknown, context: unknown) => Promise<unknown>;
const adapters: Record<string, LambdaHandler> = {
  [`serverless-http ${versionOf("serverless-http")} (recipe)`]: serverlessHttpRecipe as unknown as LambdaHandler,
  [`@codegenie/serverless-express ${versionOf("@codegenie/serverless-express")} (recipe)`]: serverlessExpressRecipe as unknown as LambdaHandler,
  [`serverless-http ${versionOf("serverless-http3")}`]: serverlessHttp3(service()) as unknown as LambdaHandler,
  [`@codegenie/serverless-express ${versionOf("serverless-express4")}`]: serverlessExpress4({ app: service() }) as unknown as LambdaHandler,
};
const events = { "REST API (1.0)": restApiEvent, "HTTP API (2.0)": httpApiEvent };

const provider = "/v1/sms/providers/sms_2c7e9b4f1a6d";
const bearer = { Authorization: `Bearer ${appA.apiKey}` };
const put = (headers: Record<string, string>, body: string | Buffer): HttpRequest => ({ method: "PUT", url: provider, headers: { ...bearer, ...headers }, body });

const cases: [string, HttpRequest][] = [
  ...operationIds.map((operationId): [string, HttpRequest] => {
    const request = validRequest(operationId);
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    return [
      operationId,
      {
        method: request.method,
        url: `/v1${request.path}`,
        headers: { "User-Agent": "test", ...credentialsFor(operationId, appA), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        ...(body === undefined ? {} : { body }),
      },
    ];
  }),
  ["a query string", { method: "GET", url: "/v1/reports/encryption?page=2&limit=1", headers: bearer }],
  ["malformed JSON", put({ "Content-Type": "application/json" }, '{"name":')],
  ["a body over 100 kB", put({ "Content-Type": "application/json" }, JSON.stringify({ name: "x".repeat(110_000) }))],
  ["a text/plain body", put({ "Content-Type": "text/plain" }, '{"name":"Primary gateway"}')],
  ["charset=iso-8859-1", put({ "Content-Type": "application/json; charset=iso-8859-1" }, '{"name":"Primary gateway"}')],
  ["a top-level scalar", put({ "Content-Type": "application/json" }, "null")],
  ["a gzip body", put({ "Content-Type": "application/json", "Content-Encoding": "gzip" }, gzipSync('{"name":"Primary gateway"}'))],
  ["no credentials", { method: "PUT", url: provider, headers: { "Content-Type": "application/json" }, body: "{}" }],
  ["an unknown path", { method: "GET", url: "/v1/nothing-here", headers: bearer }],
];

/** What the comparison looks at: the status, and a problem's code (or the media type of a success). */
interface Answer {
  status: number;
  what: string;
}

function answerOf(status: number, type: string | undefined, body: string): Answer {
  if (type?.startsWith("application/problem+json")) return { status, what: (JSON.parse(body) as { code: string }).code };
  return { status, what: type?.split(";")[0] ?? "(no body)" };
}

interface LambdaResult {
  statusCode: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body?: string;
  isBase64Encoded?: boolean;
}

async function invoke(handler: LambdaHandler, event: unknown): Promise<Answer & { connection?: string }> {
  const result = (await handler(event, lambdaContext)) as LambdaResult;
  const header = (name: string) => {
    const found = Object.entries({ ...result.multiValueHeaders, ...result.headers }).find(([key]) => key.toLowerCase() === name);
    return found === undefined ? undefined : String(found[1]);
  };
  const body = result.body === undefined ? "" : result.isBase64Encoded ? Buffer.from(result.body, "base64").toString() : result.body;
  return { ...answerOf(result.statusCode, header("content-type"), body), connection: header("connection") };
}

let listening: Listening;
const underListen = new Map<string, Answer>();
beforeAll(async () => {
  listening = await listen(service(), { idleGraceMs: 0 });
  for (const [name, request] of cases) {
    const response = await fetch(`${listening.origin}${request.url}`, { method: request.method, headers: request.headers, body: request.body });
    underListen.set(name, answerOf(response.status, response.headers.get("content-type") ?? undefined, await response.text()));
  }
});
afterAll(() => listening.close());

describe("docs/backend.md's serverless recipes", () => {
  it.each(recipes)("the page holds test/express-entry/serverless/%s.ts word for word", (recipe) => {
    const code = readFileSync(new URL(`./serverless/${recipe}.ts`, import.meta.url), "utf8");
    expect(readFileSync(new URL("../../docs/backend.md", import.meta.url), "utf8")).toContain(`\`\`\`ts\n${code}\`\`\``);
  });
});

describe.each(Object.entries(adapters))("through %s", (adapter, handler) => {
  it.each(Object.entries(events))("each request of a %s event gets the answer it gets under listen(), and no Connection: close", async (format, event) => {
    const lines: string[] = [];
    for (const [name, request] of cases) {
      const answer = await invoke(handler, event(request));
      lines.push(`${name}: ${answer.status} ${answer.what}`);
      expect({ name, ...answer }).toEqual({ name, ...underListen.get(name), connection: undefined });
    }
    console.log(`${adapter}, ${format} events:\n  ${lines.join("\n  ")}`);
    // Every operation was answered with its success status.
    expect(operationIds.every((id) => underListen.get(id)!.status < 300)).toBe(true);
  });
});

// A warm function serves invoke after invoke in one process: the layer's per-key and
// per-address slots must free on each answer, though no adapter's response emits 'close'
// (past 16 in flight for one key: 429; past 64 for one address: waits that never end).
describe.each(Object.entries(adapters))("a warm function through %s", (_adapter, handler) => {
  it("answers 100 invokes in a row from one key and address, each 200", async () => {
    const request = cases.find(([name]) => name === "readWidget")![1];
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) statuses.add((await invoke(handler, httpApiEvent(request))).status);
    expect([...statuses]).toEqual([200]);
  });
});

describe("the request id through serverless-http", () => {
  it("is API Gateway's for a REST API event without X-Request-Id (a safe token), a fresh UUID for an HTTP API's (it ends in =)", async () => {
    const request = cases.find(([name]) => name === "readWidget")![1];
    const idOf = async (event: { requestContext: { requestId: string } }) => {
      const result = (await serverlessHttpRecipe(event, lambdaContext)) as LambdaResult;
      return { sent: event.requestContext.requestId, answered: result.headers?.["x-request-id"] };
    };
    const rest = await idOf(restApiEvent(request));
    expect(rest.answered).toBe(rest.sent);
    const http = await idOf(httpApiEvent(request));
    expect(http.sent).toMatch(/=$/);
    expect(http.answered).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
