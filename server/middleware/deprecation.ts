// Deprecation (RFC 9745) and Sunset (RFC 8594) headers on every answer of an operation the
// document marks `deprecated: true`, with the dates of its `x-deprecated-at` and `x-sunset`
// extensions (docs/versioning.md). Read from the document once, when the app is built.
import type { RequestHandler } from "express";
import { pathPattern } from "./path-pattern.js";
import { operationsOf, type ApiDocument } from "../document/load.js";
import { routedPath } from "./request-path.js";

/** The headers a deprecated operation sends; undefined for an operation in good standing. */
export function deprecationHeaders(operation: Record<string, unknown>): Record<string, string> | undefined {
  if (operation.deprecated !== true) return undefined;
  const headers: Record<string, string> = {};
  const since = dateOf(operation["x-deprecated-at"]);
  // RFC 9745: a Structured Field Date, `@` and Unix seconds.
  if (since) headers.Deprecation = `@${Math.floor(since.getTime() / 1000)}`;
  const sunset = dateOf(operation["x-sunset"]);
  // RFC 8594: an HTTP-date.
  if (sunset) headers.Sunset = sunset.toUTCString();
  return headers;
}

/** A date of the document (`2027-06-01` or an RFC 3339 date-time); undefined when absent or invalid. */
function dateOf(value: unknown): Date | undefined {
  if (typeof value !== "string" && !(value instanceof Date)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

interface Deprecated {
  method: string;
  path: RegExp;
  headers: Record<string, string>;
}

/** The middleware, or none when no operation of the document is deprecated. */
export function deprecation(document: ApiDocument, basePath: string): RequestHandler | undefined {
  const deprecated: Deprecated[] = [];
  for (const { method, path, operation } of operationsOf(document)) {
    const headers = deprecationHeaders(operation as Record<string, unknown>);
    if (headers) deprecated.push({ method: method.toUpperCase(), path: pathPattern(basePath, path), headers });
  }
  if (deprecated.length === 0) return undefined;
  return (req, res, next) => {
    const path = routedPath(req);
    const found = deprecated.find((d) => d.method === req.method && d.path.test(path));
    if (found) res.set(found.headers);
    next();
  };
}
