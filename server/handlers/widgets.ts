import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** readWidget: GET /widgets/{id} */
export const readWidget =
  ({ store }: HandlerDeps): Handler<"readWidget"> =>
  async ({ path, caller }) => ({
    type: operations.readWidget.responseType,
    result: await store.widget(caller.applicationId, path.id),
  });
