// The check of a handler's 2xx JSON body against the document, done by the layer in
// sendOutput (server/contract-layer/result.ts) rather than by express-openapi-validator's response
// step. Only those bodies ever reached eov's `res.json` hook (the error mapper sends problems
// as text), yet eov compiled a validator for every documented response of an operation, 4xx
// problems included, each with the whole document (`paths` and `components`) as its root for
// Ajv to walk: about 0.5 s of CPU at start, a third of a cold start. This uses eov's own Ajv
// set-up for responses (`createResponseAjv`: its options, formats, `writeOnly` rule and each
// component schema added once by `#/components/schemas/…`), compiles each success body's
// schema alone, and reports failures with eov's own error helpers, so a failure reads as it
// did. eov stays the request validator. The 500 that answers instead (invalid_response) says
// where and which rule from the document alone: a pointer segment that is not a property name
// the document declares (a key of the answer's own, under a map schema) shows as `*`, and
// no message carries a value.
import type { ErrorObject, ValidateFunction } from "ajv";
import { createResponseAjv } from "express-openapi-validator/dist/framework/ajv/index.js";
import { ajvErrorsToValidatorError, augmentAjvErrors } from "express-openapi-validator/dist/middlewares/util.js";
import { operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import { ResponseValidationFailed } from "../middleware/error-mapper.js";
import type { ResponseObject } from "../document/types.js";
import type { ResponseFailure } from "../problems.js";

export interface ResponseValidator {
  /** Throws ResponseValidationFailed when `body` is not what the document declares for `operationId`'s `status`. */
  check(operationId: string, status: number, body: unknown): void;
  /** Compiles every success body's validator; safe to call again. */
  warm(): void;
}

const isJson = (mediaType: string) => /^application\/(.+\+)?json$/i.test(mediaType);

/** Every property name the document declares (`properties` keys, `required` items): what a pointer may show. */
function declaredNames(node: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) declaredNames(item, names);
  else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)) for (const name of Object.keys(value)) names.add(name);
      if (key === "required" && Array.isArray(value)) for (const name of value) if (typeof name === "string") names.add(name);
      declaredNames(value, names);
    }
  }
  return names;
}

const unescapeSegment = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");
const escapeSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** Ajv's errors as the answer may say them: the pointer below `/response` (a missing property's name added), undeclared keys as `*`. */
function failuresOf(errors: ErrorObject[], declared: Set<string>): ResponseFailure[] {
  return errors.map((error) => {
    const missing = (error.params as { missingProperty?: unknown }).missingProperty;
    const segments = [...error.instancePath.split("/").slice(2).map(unescapeSegment), ...(typeof missing === "string" ? [missing] : [])];
    const shown = segments.map((segment) => (/^\d+$/.test(segment) || declared.has(segment) ? escapeSegment(segment) : "*"));
    return { pointer: shown.map((segment) => `/${segment}`).join(""), message: error.message ?? error.keyword };
  });
}

/** The validator of `document`'s success bodies: each compiled on first use or by `warm()`. */
export function responseValidator(document: ApiDocument): ResponseValidator {
  let ajv: ReturnType<typeof createResponseAjv> | undefined;
  const schemas = new Map<string, unknown>();
  for (const { operationId, operation } of operationsOf(document)) {
    for (const [status, ref] of Object.entries(operation.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      const [mediaType, media] = Object.entries(resolveRef<ResponseObject>(document, ref).content ?? {})[0] ?? [];
      const schema = (media as { schema?: unknown } | undefined)?.schema;
      if (mediaType && isJson(mediaType) && schema) schemas.set(`${operationId} ${status}`, schema);
    }
  }
  const declared = declaredNames(document);
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (key: string): ValidateFunction | undefined => {
    let validate = compiled.get(key);
    if (validate) return validate;
    const schema = schemas.get(key);
    if (!schema) return undefined;
    // The options eov gives its response Ajv (framework/ajv/options.js) with this layer's settings.
    ajv ??= createResponseAjv(
      // eov's set-up reads the version and component schemas, and strips `x-stoplight` keys in place: a copy.
      structuredClone({ openapi: document.openapi, components: { schemas: (document.components as { schemas?: unknown } | undefined)?.schemas ?? {} } }) as never,
      {
        strict: false,
        strictNumbers: true,
        strictTuples: true,
        allowUnionTypes: false,
        validateSchema: false,
        useDefaults: false,
        validateFormats: true,
        formats: {},
        serDesMap: {},
        ajvFormats: { mode: "fast" },
      } as never,
    );
    // The same wrapping as eov's: error paths read `/response/…`.
    validate = ajv.compile({ type: "object", properties: { response: schema } });
    compiled.set(key, validate);
    return validate;
  };
  return {
    check(operationId, status, body) {
      const validate = validatorOf(`${operationId} ${status}`);
      if (!validate || validate({ response: body })) return;
      const errors = augmentAjvErrors(validate.errors as ErrorObject[]);
      throw new ResponseValidationFailed({
        message: ajv!.errorsText(errors, { dataVar: "" }),
        errors: ajvErrorsToValidatorError(500, errors).errors,
        failures: failuresOf(errors, declared),
      });
    },
    warm() {
      for (const key of schemas.keys()) validatorOf(key);
    },
  };
}
