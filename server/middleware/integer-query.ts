// Integer query and path parameters by a strict decimal grammar and the document's bounds,
// before the validator coerces them: its coercion takes `0x10`, `1e1` and ` 10` as numbers
// and `9999999999999999999999` as 1e+22. Which parameters are integers, and their bounds,
// come from the document.
import type { RequestHandler } from "express";
import { ApiProblem, type ProblemErrorItem } from "../problems.js";
import { resolveRef, type ApiDocument } from "../document/load.js";
import { pathPattern } from "./path-pattern.js";
import type { OperationObject, ParameterObject, SchemaObject } from "../document/types.js";
import { routedPath } from "./request-path.js";
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

function integerParameters(document: ApiDocument, operation: OperationObject): IntegerParameter[] {
  const found: IntegerParameter[] = [];
  for (const ref of operation.parameters ?? []) {
    const parameter = resolveRef<ParameterObject>(document, ref);
    if (parameter.in !== "query" && parameter.in !== "path") continue;
    const schema = parameter.schema && resolveRef<SchemaObject>(document, parameter.schema);
    if (schema?.type !== "integer") continue;
    found.push({
      in: parameter.in,
      name: parameter.name,
      minimum: schema.minimum as number | undefined,
      maximum: schema.maximum as number | undefined,
      hint: schema.description ?? parameter.description,
    });
  }
  return found;
}

/** A path template's parameters by name, read from the request path (the layer's router matched it already). */
function pathParameters(basePath: string, template: string): (path: string) => Record<string, string> {
  const names = [...template.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1]!);
  const pattern = pathPattern(basePath, template);
  return (path) => Object.fromEntries((pattern.exec(path)?.slice(1) ?? []).map((raw, i) => [names[i]!, raw]));
}

/** The check of one operation's integer parameters (before the body is read), or none when it has none. */
export function integerCheckFor(document: ApiDocument, basePath: string, path: string, operation: OperationObject): RequestHandler | undefined {
  const parameters = integerParameters(document, operation);
  if (parameters.length === 0) return undefined;
  const paramsOf = pathParameters(basePath, path);
  return (req, _res, next) => {
    const errors: ProblemErrorItem[] = [];
    const params = parameters.some((parameter) => parameter.in === "path") ? paramsOf(routedPath(req)) : {};
    for (const parameter of parameters) {
      const sent: unknown = parameter.in === "query" ? (req.query as Record<string, unknown>)[parameter.name] : params[parameter.name];
      // A repeated parameter (an array) is left to the validator, which refuses it.
      if (typeof sent !== "string") continue;
      const message = integerProblem(sent, parameter);
      if (message) errors.push({ in: parameter.in, name: parameter.name, message: parameter.hint ? `${message} (${firstSentence(parameter.hint)})` : message });
    }
    next(errors.length ? new ApiProblem("validation_failed", describeErrors(errors), errors) : undefined);
  };
}
