// The mock's handlers: one per operation, behind the reference server's own layer, which has
// checked the request (credentials, validation, limits). What each answers is decided by
// mock/answer.ts, as for the MSW handlers; here it gets the request's `Prefer` (taken off by
// mock/prefer.ts before the layer), the seed's writes, and Prism's generator for `dynamic`.
import type { OperationId } from "../generated/operations.js";
import { operationsOf, type ApiDocument } from "../server/document/load.js";
import type { Seed } from "../server/seed/types.js";
import { answerFor, type MockRequest } from "./answer.js";
import { dynamicAnswer } from "./dynamic.js";
import { current, type Preference } from "./prefer.js";
import { mockWrites } from "./writes.js";

/** What a handler receives from the contract layer, as far as the mock reads it. */
interface Input {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
  caller: { applicationId: string };
}

type Handler = (input: Input) => Promise<unknown>;

/** The mock's handler map over `document`; `dynamic` and `pages` as in AnswerOptions (mock/answer.ts). */
export function mockHandlers(document: ApiDocument, options: { dynamic: boolean; pages?: number; seed: Seed }): Record<string, Handler> {
  const writes = mockWrites(options.seed);
  const generate = (operationId: OperationId, status: number) => dynamicAnswer(document, operationId, status);
  const handlers: Record<string, Handler> = {};
  for (const { operationId } of operationsOf(document)) {
    handlers[operationId] = async (input) => {
      const request = current.getStore();
      const preference: Preference = request?.preference ?? {};
      const { status, headers, body } = await answerFor({ ...input, operationId: operationId as OperationId, preference } satisfies MockRequest, {
        dynamic: options.dynamic,
        ...(options.pages === undefined ? {} : { pages: options.pages }),
        writes,
        generate,
      });
      // A documented header the layer has set already (its own Retry-After, say) stays the layer's.
      const own = Object.fromEntries(Object.entries(headers).filter(([name]) => !request?.res.hasHeader(name)));
      return body === undefined ? { status, headers: own } : { status, body, headers: own };
    };
  }
  return handlers;
}
