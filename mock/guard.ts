// What the mock checks before Prism sees a request, so that no request can end the process
// and the mock keeps the server's body limit and its refusal of undeclared query parameters:
// Prism decodes path parameters with a library that throws an uncaught URIError on bad
// percent-encoding (`/v1/widgets/%E0%A4%A` ends the process), reads bodies up to 10 MB, and
// ignores query parameters it does not know.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { ApiProblem, bodyLimitKb, payloadTooLarge, type ProblemErrorItem } from "../server/problems.js";
import { problemBody } from "../server/http/error-mapper.js";
import { describeErrors } from "../server/http/validation-errors.js";

const bodyLimitBytes = bodyLimitKb * 1024;

/** The first path segment that is not valid percent-encoding of UTF-8, or undefined. */
export function badlyEncodedSegment(url: string): string | undefined {
  const path = url.split("?")[0]!;
  for (const segment of path.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return undefined;
}

function answer(req: IncomingMessage, res: ServerResponse, problem: ApiProblem): void {
  // The body stays unread: the connection closes after the answer instead of draining it.
  res.writeHead(problem.status, { "Content-Type": "application/problem+json", Connection: "close" });
  res.end(JSON.stringify(problemBody(problem, req)));
}

/**
 * Keeps the Access-Control-Allow-Origin that Prism's CORS support sets from the request's
 * Origin: Prism would then overwrite it with the document's example value, which a browser
 * on any other origin refuses.
 */
function keepCorsOrigin(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => (name.toLowerCase() === "access-control-allow-origin" && res.hasHeader(name) ? res : setHeader(name, value));
}

/** Names the first query parameter of a request that its operation does not declare (mock/unknown-query.ts). */
export type UnknownQueryCheck = (method: string, url: string, headers: IncomingMessage["headers"]) => ProblemErrorItem | undefined;

/** Prism's request listener behind the checks. */
export function guarded(prism: RequestListener, unknownQuery: UnknownQueryCheck): RequestListener {
  return (req, res) => {
    keepCorsOrigin(res);
    if (badlyEncodedSegment(req.url ?? "/") !== undefined) {
      const errors: ProblemErrorItem[] = [{ in: "path", message: "is not valid percent-encoding" }];
      return answer(req, res, new ApiProblem("validation_failed", describeErrors(errors), errors));
    }
    const unknown = unknownQuery(req.method ?? "GET", req.url ?? "/", req.headers);
    if (unknown) return answer(req, res, new ApiProblem("validation_failed", describeErrors([unknown]), [unknown]));
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > bodyLimitBytes) return answer(req, res, payloadTooLarge());
    if (req.headers["transfer-encoding"] !== undefined) return readChunked(req, res, prism);
    prism(req, res);
  };
}

/**
 * A chunked body has no declared length: it is read here up to the limit, then handed to
 * Prism as a request with a Content-Length (Prism must not read the same stream: it would
 * answer a second time, after the 413, and its failure would be unhandled).
 */
function readChunked(req: IncomingMessage, res: ServerResponse, prism: RequestListener): void {
  const chunks: Buffer[] = [];
  let received = 0;
  req.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (received <= bodyLimitBytes) chunks.push(chunk);
    else if (!res.headersSent) {
      answer(req, res, payloadTooLarge());
      req.destroy();
    }
  });
  req.on("end", () => {
    if (res.headersSent) return;
    const body = Buffer.concat(chunks);
    const { "transfer-encoding": _chunked, ...headers } = req.headers;
    const replay = Object.assign(new PassThrough(), {
      headers: { ...headers, "content-length": String(body.length) },
      method: req.method,
      url: req.url,
      httpVersion: req.httpVersion,
      socket: req.socket,
    });
    replay.end(body);
    prism(replay as unknown as IncomingMessage, res);
  });
}
