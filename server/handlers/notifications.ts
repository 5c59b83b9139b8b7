import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** createNotification: POST /notifications */
export const createNotification =
  ({ store, clock }: HandlerDeps): Handler<"createNotification"> =>
  async ({ body, caller }) => ({
    type: operations.createNotification.responseType,
    result: await store.createNotification(caller.applicationId, body, clock()),
  });
