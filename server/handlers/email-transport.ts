import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** saveEmailTransport: POST /custom/emails */
export const saveEmailTransport =
  ({ store, clock }: HandlerDeps): Handler<"saveEmailTransport"> =>
  async ({ body, caller }) => ({
    type: operations.saveEmailTransport.responseType,
    result: await store.saveEmailTransport(caller.applicationId, body, clock()),
  });
