// Sending what a handler returned: its 200 body as is, or a typed result `{ status, body?,
// headers? }` of a documented 2xx response. A JSON body is checked against the document
// (when response validation is on, server/contract-layer/response-validator.ts) before `res.json`; a status the document does not declare for the operation
// is the handler's bug, answered as a 500, never sent; so is a body where the document
// declares none, or none where it declares one.
import type { Response } from "express";
import { rememberResultHeaders } from "../middleware/error-mapper.js";
import { describeOperation, type ServedOperation } from "./operations.js";

/** A handler's typed result, as the layer reads it at run time. */
interface ResultShape {
  status: number;
  body?: unknown;
  headers?: Record<string, string | number | readonly string[] | undefined>;
}

const resultKeys = new Set(["status", "body", "headers"]);

/**
 * Whether a handler's value is a typed result rather than a 200 body: a numeric `status`
 * and no key but status, body and headers (every 200 body of this API carries `type`).
 */
export function isResult(value: unknown): value is ResultShape {
  return (
    typeof value === "object" && value !== null && typeof (value as { status?: unknown }).status === "number" && Object.keys(value).every((key) => resultKeys.has(key))
  );
}

const isJson = (mediaType: string) => /^application\/(.+\+)?json$/i.test(mediaType);

/** Writes one handler's output as the response of `operation`. */
export function sendOutput(
  res: Response,
  operation: ServedOperation,
  output: unknown,
  checkResponse?: (operationId: string, status: number, body: unknown) => void,
): void {
  const result: ResultShape = isResult(output) ? output : { status: 200, body: output };
  if (!operation.successes.has(result.status)) {
    throw new Error(`The handler of ${operation.operationId} (${describeOperation(operation)}) returned status ${result.status}, which the document does not declare`);
  }
  const mediaType = operation.successes.get(result.status);
  if ((result.body === undefined) !== (mediaType === undefined)) {
    throw new Error(
      `The handler of ${operation.operationId} returned ${result.body === undefined ? "no body" : "a body"} for ${result.status}, which the document declares ${mediaType === undefined ? "without" : "with"} one`,
    );
  }
  res.status(result.status);
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (value !== undefined) res.set(name, typeof value === "number" ? String(value) : (value as string | string[]));
  }
  if (mediaType === undefined) {
    res.end();
    return;
  }
  res.type(mediaType);
  if (isJson(mediaType)) {
    // The response validator may refuse the body: the problem then answered carries none of them.
    rememberResultHeaders(res, Object.keys(result.headers ?? {}));
    // Throws ResponseValidationFailed: the off-contract body is never sent, the mapper
    // answers a generic 500 and logs "response validation failed".
    checkResponse?.(operation.operationId, result.status, result.body);
    res.json(result.body);
  } else {
    res.send(result.body);
  }
}
