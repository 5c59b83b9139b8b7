// A credential header sent twice is refused: Node keeps the first Authorization and joins
// repeated X-Api-Key values, while a proxy in front may take the last, so the server and the
// proxy would disagree on who is calling.
import type { RequestHandler } from "express";
import { ApiProblem, type ProblemErrorItem } from "../problems.js";
import { describeErrors } from "./validation-errors.js";

/** The headers that carry credentials, as the document's security schemes name them. */
export const credentialHeaders = ["authorization", "x-api-key", "x-api-secret"] as const;

/** The credential headers that occur more than once among `rawHeaders` (name, value, name, value, …). */
export function repeatedCredentialHeaders(rawHeaders: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if ((credentialHeaders as readonly string[]).includes(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].filter(([, count]) => count > 1).map(([name]) => name);
}

/** The middleware: 400 naming each repeated credential header, before anything authenticates. */
export function duplicateCredentialCheck(): RequestHandler {
  return (req, _res, next) => {
    const repeated = repeatedCredentialHeaders(req.rawHeaders);
    if (repeated.length === 0) return next();
    const errors: ProblemErrorItem[] = repeated.map((name) => ({ in: "header", name, message: "must be sent once" }));
    next(new ApiProblem("validation_failed", describeErrors(errors), errors));
  };
}
