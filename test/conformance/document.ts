// What the checks read from the bundled document: each operation's valid request (the id
// and body of its examples, which are the demo records), and a 2020-12 validator for its
// response schemas. The checks never restate a schema; they ask the document
// (test/support/document.ts).
import type { OperationId } from "../../generated/operations.js";
import { componentValidator, errorsText, successSchemaRef } from "../support/document.js";

export { exampleBody, exampleId, successExample } from "../support/document.js";

function errorsOf(ref: string, value: unknown): string | undefined {
  const validate = componentValidator(ref);
  return validate(value) ? undefined : errorsText(validate.errors, "body");
}

/** Why `body` does not match the operation's 200 response schema, or undefined when it does. */
export function successSchemaErrors(operationId: OperationId, body: unknown): string | undefined {
  return errorsOf(successSchemaRef(operationId), body);
}

/** Why `body` is not a Problem (RFC 9457 + `code`), or undefined when it is. */
export function problemSchemaErrors(body: unknown): string | undefined {
  return errorsOf("#/components/schemas/Problem", body);
}
