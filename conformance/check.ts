import type { OperationId } from "../generated/operations.js";
import type { Fixtures, IdFixture, Target } from "./target.js";

/** What a check needs beyond the base URL and API key: a fixture, or the API secret. */
export type Need = Exclude<keyof Fixtures, "disposable"> | "apiSecret";

/** One conformance check: a request and the judgement of its response. */
export interface Check {
  /** Shown in reports, e.g. `readWidget: 401 without credentials`. */
  name: string;
  operationId: OperationId;
  /** Set on checks that need a target that keeps state: why a stateless mock cannot honour it. */
  statefulBecause?: string;
  /** What the check needs from the command line; it is skipped, naming them, when one is missing. */
  needs?: Need[];
  /**
   * Set on a check that deletes (or, on a broken target, may delete) the record its `{id}`
   * names: it runs after every other check, with `fixtures[kind]` replaced by a record of
   * `fixtures.disposable[kind]` of its own, and is skipped when none is left.
   */
  consumes?: IdFixture;
  /** Resolves when the target conforms; throws a ConformanceError naming what broke. */
  run(target: Target): Promise<void>;
}
