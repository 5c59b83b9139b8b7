// The events AWS Lambda hands a function behind API Gateway, built from an HTTP request as
// the platform builds them: a REST API's proxy integration (payload 1.0: header names as the
// client sent them, each also in `multiValueHeaders`, the query split into both maps) and an
// HTTP API's (payload 2.0: lower-case header names, repeated ones joined with commas,
// `rawPath` and `rawQueryString`). A JSON body arrives as its text (`isBase64Encoded:
// false`); other bytes base64-encoded. The `context` is the one every invoke gets.
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from "aws-lambda";

export interface HttpRequest {
  method: string;
  /** Path and query, e.g. `/v1/reports/encryption?page=2`. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const sourceIp = "203.0.113.7";
const requestTime = new Date("2026-01-02T03:04:05Z");

function bodyOf(body: string | Buffer | undefined): { body: string | null; isBase64Encoded: boolean } {
  if (body === undefined) return { body: null, isBase64Encoded: false };
  if (typeof body === "string") return { body, isBase64Encoded: false };
  return { body: body.toString("base64"), isBase64Encoded: true };
}

/** With Content-Length where a client sends one (API Gateway passes the client's headers on). */
function withLength(request: HttpRequest): Record<string, string> {
  if (request.body === undefined || Object.keys(request.headers).some((name) => name.toLowerCase() === "content-length")) return request.headers;
  return { ...request.headers, "Content-Length": String(Buffer.byteLength(request.body)) };
}

/** A REST API (payload format 1.0) proxy event, `{proxy+}` on the stage `prod`. */
export function restApiEvent(request: HttpRequest): APIGatewayProxyEvent {
  const url = new URL(request.url, "https://api.example.com");
  const headers = withLength(request);
  const query = [...url.searchParams.keys()];
  return {
    resource: "/{proxy+}",
    path: url.pathname,
    httpMethod: request.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: query.length ? Object.fromEntries(query.map((name) => [name, url.searchParams.getAll(name).at(-1)!])) : null,
    multiValueQueryStringParameters: query.length ? Object.fromEntries(query.map((name) => [name, url.searchParams.getAll(name)])) : null,
    pathParameters: { proxy: url.pathname.slice(1) },
    stageVariables: null,
    requestContext: {
      accountId: "123456789012",
      apiId: "a1b2c3d4e5",
      authorizer: null,
      protocol: "HTTP/1.1",
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent: headers["User-Agent"] ?? null,
        userArn: null,
      },
      path: `/prod${url.pathname}`,
      stage: "prod",
      requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
      requestTimeEpoch: requestTime.getTime(),
      resourceId: "123456",
      resourcePath: "/{proxy+}",
    },
    ...bodyOf(request.body),
  };
}

/** An HTTP API (payload format 2.0) event on the `$default` stage. */
export function httpApiEvent(request: HttpRequest): APIGatewayProxyEventV2 {
  const url = new URL(request.url, "https://api.example.com");
  const headers = Object.fromEntries(Object.entries(withLength(request)).map(([name, value]) => [name.toLowerCase(), value]));
  const query = [...new Set(url.searchParams.keys())];
  const { body, isBase64Encoded } = bodyOf(request.body);
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(query.length ? { queryStringParameters: Object.fromEntries(query.map((name) => [name, url.searchParams.getAll(name).join(",")])) } : {}),
    requestContext: {
      accountId: "123456789012",
      apiId: "a1b2c3d4e5",
      domainName: "a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com",
      domainPrefix: "a1b2c3d4e5",
      http: { method: request.method, path: url.pathname, protocol: "HTTP/1.1", sourceIp, userAgent: headers["user-agent"] ?? "" },
      requestId: "JKJaXmPLvHcESHA=",
      routeKey: "$default",
      stage: "$default",
      time: "02/Jan/2026:03:04:05 +0000",
      timeEpoch: requestTime.getTime(),
    },
    ...(body === null ? {} : { body }),
    isBase64Encoded,
  };
}

/** The context of an invoke (what a handler may read; the adapters read none of it). */
export const lambdaContext: Context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: "contract-api",
  functionVersion: "$LATEST",
  invokedFunctionArn: "arn:aws:lambda:eu-west-1:123456789012:function:contract-api",
  memoryLimitInMB: "1024",
  awsRequestId: "8f5c2c5e-0000-4000-8000-000000000001",
  logGroupName: "/aws/lambda/contract-api",
  logStreamName: "2026/01/02/[$LATEST]0123456789abcdef",
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
};
