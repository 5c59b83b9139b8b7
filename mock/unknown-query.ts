// Query parameters an operation does not declare, refused as the server refuses them: Prism
// validates the parameters it knows and ignores the others, so `?limit=20&pgae=2` worked on
// the mock and failed on the server. As on the server, a request without its operation's
// credentials is left to the 401 (Prism's, here), and the answer names the first unknown
// parameter. One difference stays: when a declared parameter is invalid too, the server
// names that one instead.
import type { IncomingHttpHeaders } from "node:http";
import { pathPattern } from "../server/express/router.js";
import { operationsOf, resolveRef, type ApiDocument } from "../server/http/document.js";
import type { ParameterObject } from "../server/http/openapi-types.js";
import type { ProblemErrorItem } from "../server/problems.js";

interface Served {
  method: string;
  pattern: RegExp;
  query: Set<string>;
  /** Whether the request carries the operation's credentials (their values are the mock's to judge). */
  hasCredentials: (headers: IncomingHttpHeaders) => boolean;
}

/** Prism's own switches, which the mock documents as the query-string form of `Prefer`. */
const prismSwitches = new Set(["__code", "__example", "__dynamic"]);

const bearer = (headers: IncomingHttpHeaders) => /^Bearer \S/i.test(headers.authorization ?? "");
const keyPair = (headers: IncomingHttpHeaders) => Boolean(headers["x-api-key"]) && Boolean(headers["x-api-secret"]);

/** The check over `document`: the error naming the first undeclared query parameter of a request, if any. */
export function unknownQueryCheck(document: ApiDocument, basePath: string): (method: string, url: string, headers: IncomingHttpHeaders) => ProblemErrorItem | undefined {
  const served: Served[] = operationsOf(document).map(({ method, path, operation }) => {
    const schemes = (operation.security ?? document.security ?? []).flatMap((requirement) => Object.keys(requirement));
    return {
      method: method.toUpperCase(),
      pattern: pathPattern(basePath, path),
      query: new Set((operation.parameters ?? []).map((p) => resolveRef<ParameterObject>(document, p)).filter((p) => p.in === "query").map((p) => p.name)),
      hasCredentials: schemes.length === 0 ? () => true : schemes.includes("bearerAuth") ? bearer : keyPair,
    };
  });
  return (method, url, headers) => {
    const mark = url.indexOf("?");
    if (mark === -1) return undefined;
    const path = url.slice(0, mark);
    const query = url.slice(mark + 1);
    const operation = served.find((o) => o.method === method && o.pattern.test(path));
    if (!operation?.hasCredentials(headers)) return undefined;
    for (const name of new URLSearchParams(query).keys()) {
      if (!operation.query.has(name) && !prismSwitches.has(name)) return { in: "query", name, message: `Unknown query parameter '${name}'` };
    }
    return undefined;
  };
}
