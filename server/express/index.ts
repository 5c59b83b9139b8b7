// `@authsvc/app-api-contract/express`: the contract-enforcing Express layer a service builds
// its implementation on. It owns validation, credentials, routing by operationId, request
// ids, log redaction and problem responses; the service writes the handlers.
export { createContractApp, type ContractAppOptions, type TrustProxy } from "./app.js";
export type {
  Caller,
  ExtraHeaders,
  Handler,
  HandlerInput,
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
export type { Authenticator } from "../http/security.js";
export type { RateLimitOptions } from "../http/rate-limit.js";
export type { CorsOptions } from "../http/cors.js";
export type { ApiDocument } from "../http/document.js";
export { createLogger } from "../http/logging.js";
export { ApiProblem, conflict, invalid, notFound, problemKinds, type Problem, type ProblemCode, type ProblemErrorItem } from "../problems.js";
