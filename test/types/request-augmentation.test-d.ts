// A service that also uses pino-http (or any library declaring `id`/`log` on Node's request
// types) compiles beside the layer: the layer declares nothing on IncomingMessage or
// Express's Request (server/middleware/logging.ts keeps its own type), so no second declaration of
// `id` meets another type (TS2717). This file is such a declaration, as pino-http writes it;
// `npm run typecheck` compiles it with the layer's sources.
import type { IncomingMessage } from "node:http";
import type { Request } from "express";
import { expectTypeOf } from "vitest";
import { createContractApp } from "../../server/contract-layer/index.js";

type ReqId = number | string | object;
declare module "node:http" {
  interface IncomingMessage {
    id: ReqId;
  }
}

expectTypeOf<IncomingMessage["id"]>().toEqualTypeOf<ReqId>();
expectTypeOf<Request["id"]>().toEqualTypeOf<ReqId>();
expectTypeOf(createContractApp).toBeFunction();
