import type { OperationId } from "../../generated/operations.js";
import type { Target } from "./target.js";

/** One conformance check: a request and the judgement of its response. */
export interface Check {
  /** Shown in reports, e.g. `readWidget: 401 without credentials`. */
  name: string;
  operationId: OperationId;
  /** Set on checks that need a target that keeps state: why a stateless mock cannot honour it. */
  statefulBecause?: string;
  /** Set on checks that need a second application's credentials (`Target.otherApplication`). */
  needsOtherApplication?: true;
  /** Resolves when the target conforms; throws a ConformanceError naming what broke. */
  run(target: Target): Promise<void>;
}
