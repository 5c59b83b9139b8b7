// The few OpenAPI 3.1 object shapes the server reads, declared here rather than imported
// from express-openapi-validator's private `dist/framework/types` (not part of its API, and
// absent from a consumer's install when the package layout changes).
import type { HttpMethod } from "./walk.js";

/** A `$ref` to somewhere else in the document. */
export interface ReferenceObject {
  $ref: string;
}

/** A JSON Schema as the document writes it (only the parts the server reads are typed). */
export interface SchemaObject {
  description?: string;
  [keyword: string]: unknown;
}

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  description?: string;
  required?: boolean;
  schema?: SchemaObject | ReferenceObject;
  [field: string]: unknown;
}

export interface MediaTypeObject {
  schema?: SchemaObject | ReferenceObject;
  [field: string]: unknown;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId?: string;
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: unknown;
  responses?: Record<string, ResponseObject | ReferenceObject>;
  security?: Record<string, string[]>[];
  [field: string]: unknown;
}

export type PathItemObject = { parameters?: (ParameterObject | ReferenceObject)[] } & {
  [method in HttpMethod]?: OperationObject;
};

/** An OpenAPI 3.1 document, bundled (every `$ref` local). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  servers?: { url: string; [field: string]: unknown }[];
  paths?: Record<string, PathItemObject | ReferenceObject>;
  components?: Record<string, Record<string, unknown>>;
  security?: Record<string, string[]>[];
  [field: string]: unknown;
}
