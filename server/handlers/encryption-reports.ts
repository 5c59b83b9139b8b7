import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** findEncryptionReports: GET /reports/encryption */
export const findEncryptionReports =
  ({ store }: HandlerDeps): Handler<"findEncryptionReports"> =>
  async ({ query: { limit, page, ...filters }, caller }) => ({
    type: operations.findEncryptionReports.responseType,
    ...(await store.encryptionReports(caller.applicationId, filters, { limit, page })),
  });
