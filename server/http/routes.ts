// Routing by operationId: express-openapi-validator mounts one route per operation of the
// document and asks this resolver for its function; the function is looked up by the
// operation's operationId in the typed Handlers map, so no path is written twice.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { OperationHandlerOptions } from "express-openapi-validator/dist/framework/types.js";
import type { Handlers, HandlerInput } from "../contract.js";
import type { OperationId } from "../../generated/operations.js";
import { callerOf } from "./security.js";

type AnyHandler = (input: HandlerInput<OperationId>) => unknown;

/** The route function of one operation: validated input in, the handler's body out as 200. */
function route(handler: AnyHandler): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // eov's operation router matches paths its validator does not manage (it is a plain
    // express.Router: `/V1/...` matches `/v1/...`). A request eov did not validate and
    // authenticate never reaches a handler: it falls through to the unknown-route 404.
    if (!(req as Request & { openapi?: unknown }).openapi) return next();
    const body = await handler({
      path: req.params as never,
      query: req.query as never,
      body: req.body as never,
      caller: callerOf(req),
    });
    // res.json goes through the response validator when it is on.
    res.status(200).json(body);
  };
}

/** eov's `operationHandlers` option over a Handlers map. */
export function operationRoutes(handlers: Handlers): OperationHandlerOptions {
  return {
    basePath: "",
    resolver: (_basePath, metadata, apiDoc) => {
      const pathKey = metadata.openApiRoute.slice(metadata.basePath.length);
      const operation = apiDoc.paths?.[pathKey]?.[metadata.method.toLowerCase() as "get"];
      const operationId = operation?.operationId;
      if (!operationId || !(operationId in handlers)) {
        throw new Error(`No handler for ${metadata.method} ${metadata.openApiRoute} (operationId ${operationId ?? "missing"})`);
      }
      return route(handlers[operationId as OperationId] as AnyHandler);
    },
  };
}
