import type { Handler } from "../contract-layer/contract.js";
import { operations } from "../../generated/operations.js";
import type { HandlerDeps } from "./deps.js";

/** findUserActivity: GET /users/{id}/activity */
export const findUserActivity =
  ({ store }: HandlerDeps): Handler<"findUserActivity"> =>
  async ({ path, query, caller }) => ({
    type: operations.findUserActivity.responseType,
    ...(await store.userActivity(caller.applicationId, path.id, query)),
  });
