import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** updateSmsProvider: PUT /sms/providers/{id} */
export const updateSmsProvider =
  ({ store }: HandlerDeps): Handler<"updateSmsProvider"> =>
  async ({ path, body, caller }) => ({
    type: operations.updateSmsProvider.responseType,
    result: await store.updateSmsProvider(caller.applicationId, path.id, body ?? {}),
  });
