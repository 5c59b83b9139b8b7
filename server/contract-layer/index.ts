// `@authsvc/app-api-server/express`: the contract-enforcing Express layer a service builds
// its implementation on. It owns validation, credentials, routing by operationId, request
// ids, log redaction and problem responses; the service writes the handlers. `listen`
// serves it (or the host app it is mounted in) with the reference server's protections.
export { createContractApp, type ContractAppOptions, type HandlerOptions } from "./app.js";
export type { TrustProxy } from "../middleware/trust-proxy.js";
export { listen, type ListenOptions, type Listening } from "./listen.js";
export { ready } from "./readiness.js";
export { exact, exactOutput, type UndeclaredPath } from "./exact.js";
export type {
  Caller,
  ExtraHeaders,
  Handler,
  HandlerInput,
  HandlerOutput,
  HandlerResult,
  Handlers,
  LayerHeader,
  OperationBody,
  OperationHandler,
  OperationInput,
  OperationOutput,
  OperationPath,
  OperationQuery,
  OperationResult,
  OperationSuccessBody,
  PathParams,
  QueryParams,
  RequestBody,
  SuccessBody,
  SuccessStatus,
} from "./contract.js";
// The document's types, as `@authsvc/app-api-contract/schema` names them, so a service needs no
// second package for `Handlers<operations, Context>` or a record's `components["schemas"]` type.
export type { components, operations, paths } from "../../generated/schema.js";
export type { Authenticator } from "../middleware/security.js";
export type { RateLimitOptions } from "../middleware/rate-limit.js";
export type { CorsOptions } from "../middleware/cors.js";
export type { ApiDocument } from "../document/load.js";
export { createLogger } from "../middleware/logging.js";
export { ApiProblem, conflict, invalid, notFound, problemKinds, type Problem, type ProblemCode, type ProblemErrorItem } from "../problems.js";
