// The check of a handler's 2xx JSON body against the document, done by the layer in
// sendOutput (server/contract-layer/result.ts) rather than by express-openapi-validator's response
// step. Only those bodies ever reached eov's `res.json` hook (the error mapper sends problems
// as text), yet eov compiled a validator for every documented response of an operation, 4xx
// problems included, each with the whole document (`paths` and `components`) as its root for
// Ajv to walk: about 0.5 s of CPU at start, a third of a cold start. This uses eov's own Ajv
// set-up for responses (`createResponseAjv`: its options, formats, `writeOnly` rule and each
// component schema added once by `#/components/schemas/…`), compiles each success body's
// schema alone, and reports failures with eov's own error helpers, so a failure reads as it
// did. eov stays the request validator.
import type { ErrorObject, ValidateFunction } from "ajv";
import { createResponseAjv } from "express-openapi-validator/dist/framework/ajv/index.js";
import { ajvErrorsToValidatorError, augmentAjvErrors } from "express-openapi-validator/dist/middlewares/util.js";
import { operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import { ResponseValidationFailed } from "../middleware/error-mapper.js";
import type { ResponseObject } from "../document/types.js";

export interface ResponseValidator {
  /** Throws ResponseValidationFailed when `body` is not what the document declares for `operationId`'s `status`. */
  check(operationId: string, status: number, body: unknown): void;
  /** Compiles every success body's validator; safe to call again. */
  warm(): void;
}

const isJson = (mediaType: string) => /^application\/(.+\+)?json$/i.test(mediaType);

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
      });
    },
    warm() {
      for (const key of schemas.keys()) validatorOf(key);
    },
  };
}
