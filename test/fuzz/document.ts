// The bundled document as the fuzz generators read it (through test/support): each
// operation's parameters, request body schema and documented responses.
import { operations, type OperationId } from "../../generated/operations.js";
import { deref, operation as operationObject, validator } from "../support/document.js";

export { deref, validator };

/** A JSON Schema of the document (the subset it uses), loosely typed on purpose. */
export type Schema = { [keyword: string]: any } | boolean;

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}

export interface OperationInfo {
  id: OperationId;
  method: string;
  path: string;
  parameters: Parameter[];
  bodySchema?: Schema;
  /** Documented statuses, each with its media type and schema. */
  responses: Record<string, { mediaType: string; schema: Schema }>;
  security: readonly string[];
}

export function operation(id: OperationId): OperationInfo {
  const { method, path, security } = operations[id];
  const raw = operationObject(id);
  const responses: OperationInfo["responses"] = {};
  for (const [status, ref] of Object.entries(raw.responses)) {
    const response = deref(ref);
    const [mediaType, media] = Object.entries(response.content ?? {})[0] as [string, { schema: Schema }];
    responses[status] = { mediaType, schema: media.schema };
  }
  return {
    id,
    method,
    path,
    parameters: (raw.parameters ?? []).map((p: unknown) => deref<Parameter>(p)),
    bodySchema: raw.requestBody ? deref(raw.requestBody).content["application/json"].schema : undefined,
    responses,
    security,
  };
}
