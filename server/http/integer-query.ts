// Integer query and path parameters by a strict decimal grammar and the document's bounds,
// before the validator coerces them: its coercion takes `0x10`, `1e1` and ` 10` as numbers
// and `9999999999999999999999` as 1e+22. Which parameters are integers, and their bounds,
// come from the document.
import type { RequestHandler } from "express";
import type { OpenAPIV3 } from "express-openapi-validator/dist/framework/types.js";
import { ApiProblem, type ProblemErrorItem } from "../problems.js";
import { resolveRef, type ApiDocument } from "./document.js";
import { operationRouter } from "./operation-router.js";
import { describeErrors, firstSentence } from "./validation-errors.js";

/** 0, or digits without a leading zero after an optional minus: nothing else is an integer here. */
const decimalInteger = /^(0|-?[1-9][0-9]*)$/;

interface IntegerParameter {
  in: "query" | "path";
  name: string;
  minimum?: number;
  maximum?: number;
  /** What the document says the value is, appended to messages as the validator's are. */
  hint?: string;
}

/** The message for one raw value, or undefined when it is a decimal integer within bounds. */
export function integerProblem(raw: string, parameter: Pick<IntegerParameter, "minimum" | "maximum">): string | undefined {
  if (!decimalInteger.test(raw)) return "must be a decimal integer (digits only, no sign but -, no spaces, exponent or hex)";
  // BigInt: a value past 2^53 is compared as written, not rounded.
  const value = BigInt(raw);
  if (parameter.minimum !== undefined && value < BigInt(parameter.minimum)) return `must be >= ${parameter.minimum}`;
  if (parameter.maximum !== undefined && value > BigInt(parameter.maximum)) return `must be <= ${parameter.maximum}`;
  return undefined;
}

function integerParameters(document: ApiDocument, operation: OpenAPIV3.OperationObject): IntegerParameter[] {
  const found: IntegerParameter[] = [];
  for (const ref of operation.parameters ?? []) {
    const parameter = resolveRef<OpenAPIV3.ParameterObject>(document, ref);
    if (parameter.in !== "query" && parameter.in !== "path") continue;
    const schema = parameter.schema && resolveRef<OpenAPIV3.SchemaObject>(document, parameter.schema);
    if (schema?.type !== "integer") continue;
    found.push({ in: parameter.in, name: parameter.name, minimum: schema.minimum, maximum: schema.maximum, hint: schema.description ?? parameter.description });
  }
  return found;
}

/** The middleware, mounted at the base path before the body is read. */
export function integerParameterCheck(document: ApiDocument): RequestHandler {
  return operationRouter(document, ({ operation }) => {
    const parameters = integerParameters(document, operation);
    if (parameters.length === 0) return undefined;
    return (req, _res, next) => {
      const errors: ProblemErrorItem[] = [];
      for (const parameter of parameters) {
        const sent: unknown = parameter.in === "query" ? (req.query as Record<string, unknown>)[parameter.name] : req.params[parameter.name];
        // A repeated parameter (an array) is left to the validator, which refuses it.
        if (typeof sent !== "string") continue;
        const message = integerProblem(sent, parameter);
        if (message) errors.push({ in: parameter.in, name: parameter.name, message: parameter.hint ? `${message} (${firstSentence(parameter.hint)})` : message });
      }
      next(errors.length ? new ApiProblem("validation_failed", describeErrors(errors), errors) : undefined);
    };
  });
}
