// The two ways a check fails: a judgement of an answer (ConformanceError, thrown by expect.ts
// and the checks) and an answer that breaks a bound of the run (HostileAnswer, thrown by
// bounded-fetch.ts). Both are failures of the check, named in the report; anything else is a
// refused connection or a bug (suite.ts).

/** What broke, as the report shows it: status, content type, envelope `type`, or the schema path. */
export class ConformanceError extends Error {
  override name = "ConformanceError";
}

/** An answer that breaks a bound: late, endless, too large, or a redirect. */
export class HostileAnswer extends ConformanceError {
  override name = "HostileAnswer";
}

/** A request not sent because the target had stopped answering (stall.ts): its check is skipped, naming why. */
export class TargetStalled extends Error {
  override name = "TargetStalled";
}
