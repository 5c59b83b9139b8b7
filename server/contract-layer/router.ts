// Routing by the document's path templates: one regular expression per path, compiled when
// the app is built (express-openapi-validator's own operation router compiles its
// path-to-regexp matchers again on every request). A path the document serves with another
// method is a 405 naming the allowed ones; a path it does not serve goes to `next()` (the
// host app's next route, or the unknown-route 404). Paths are matched below the mount path
// Express strips (`req.url`), so `app.use("/api", contractApp)` serves `/api/v1/...`. Paths
// are case-sensitive; one trailing slash is tolerated, as Express and the validator do.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ApiProblem } from "../problems.js";
import { pathPattern } from "../middleware/path-pattern.js";
import { routedPath } from "../middleware/request-path.js";

/** The middleware of one operation, with the method and path template it serves. */
export interface OperationRoute {
  method: string;
  path: string;
  handle: RequestHandler;
}

interface CompiledPath {
  pattern: RegExp;
  /** Upper-case method → the operation's middleware. */
  methods: Map<string, RequestHandler>;
  /** The Allow header of a 405 on this path. */
  allow: string;
}

/** The router over every operation, and whether a request's path is one the document serves (any method). */
export interface OperationRouter {
  handle: RequestHandler;
  serves(req: Request): boolean;
}

/** The router over every operation; unmatched requests go to `next()`. */
export function operationRouter(basePath: string, routes: readonly OperationRoute[]): OperationRouter {
  const paths = new Map<string, CompiledPath>();
  for (const route of routes) {
    const compiled = paths.get(route.path) ?? { pattern: pathPattern(basePath, route.path), methods: new Map(), allow: "" };
    compiled.methods.set(route.method.toUpperCase(), route.handle);
    compiled.allow = [...compiled.methods.keys()].join(", ");
    paths.set(route.path, compiled);
  }
  const compiledPaths = [...paths.values()];
  const prefix = `${basePath}/`;

  const lookup = (path: string) => (path.startsWith(prefix) ? compiledPaths.find((compiled) => compiled.pattern.test(path)) : undefined);
  // The gate in front and the router behind it match the same path: the match is kept.
  const matched = new WeakMap<Request, CompiledPath | undefined>();
  const find = (req: Request) => {
    if (matched.has(req)) return matched.get(req);
    const found = lookup(routedPath(req));
    matched.set(req, found);
    return found;
  };

  return {
    serves: (req) => find(req) !== undefined,
    handle: (req: Request, res: Response, next: NextFunction) => {
      const compiled = find(req);
      if (!compiled) return next();
      const handle = compiled.methods.get(req.method);
      if (handle) return handle(req, res, next);
      // The path is left out of the detail (it is the `instance`): nothing typed into a URL is echoed in a text.
      return next(new ApiProblem("method_not_allowed", `${req.method} is not served at this path; allowed: ${compiled.allow}.`, undefined, { Allow: compiled.allow }));
    },
  };
}

/** Runs middleware in order as one; an error or a thrown/rejected call goes to `done`. */
export function chain(steps: readonly RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const returned = step(req, res, next) as unknown;
        if (returned instanceof Promise) returned.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}
