import type { Handler } from "../contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** readWidget: GET /widgets/{id} */
export const readWidget =
  ({ store }: HandlerDeps): Handler<"readWidget"> =>
  ({ path, caller }) => ({
    type: operations.readWidget.responseType,
    result: store.widget(caller.applicationId, path.id),
  });
