// `start_date` and `end_date` of GET /reports/encryption: Unix time in seconds, inclusive
// bounds on `created_at` (the document bounds them so a millisecond value never gets here).
// Inclusive means whole seconds: a report at 12:00:05.900 matches `end_date` = 12:00:05.
import { invalid } from "../problems.js";

/** Created-at bounds in milliseconds: `fromMs <= created_at < untilMs`. */
export interface DateBounds {
  fromMs: number;
  untilMs: number;
}

/** The bounds of a query, or a 400 naming both parameters when they are crossed. */
export function reportDateBounds(startDate: number | undefined, endDate: number | undefined): DateBounds {
  if (startDate !== undefined && endDate !== undefined && startDate > endDate) {
    const message = `start_date (${startDate}) is after end_date (${endDate})`;
    throw invalid("start_date must not be after end_date.", [
      { in: "query", name: "start_date", message },
      { in: "query", name: "end_date", message },
    ]);
  }
  return {
    fromMs: startDate === undefined ? -Infinity : startDate * 1000,
    untilMs: endDate === undefined ? Infinity : (endDate + 1) * 1000,
  };
}
