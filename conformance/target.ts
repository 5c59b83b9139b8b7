import type { Limits } from "./bounded-fetch.js";
import type { StallGuard } from "./stall.js";

/** The ids of records the target holds for the checked application (the `--fixtures` file). */
export interface Fixtures {
  /** A widget (GET /widgets/{id}). */
  widget?: string;
  /** A user (GET /users/{id}/activity). */
  user?: string;
  /** The default SMS provider, of an application with at least two (PUT /sms/providers/{id}). */
  smsProvider?: string;
  /** A webhook (GET /webhooks/{id}, its history, and the list). */
  webhook?: string;
  /** Another application's credentials, for the cross-application isolation checks. */
  otherApplication?: { apiKey: string; apiSecret: string };
  /**
   * Records the checks of a deleting operation may use up, by kind (`{ "webhook": ["whk_…"] }`):
   * one per such check, never the shared fixture above, which later checks still need.
   */
  disposable?: { [K in IdFixture]?: string[] };
}

/** The fixtures that are ids, by the operation whose `{id}` they fill. */
export type IdFixture = Exclude<keyof Fixtures, "otherApplication" | "disposable">;

/** An implementation of the API that the conformance checks run against. */
export interface Target {
  /** Shown in the report, e.g. `mock`, `server`, or the URL. */
  name: string;
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** API key of the checked application. */
  apiKey: string;
  /** Its API secret (POST /notifications); checks that need it are skipped without it. */
  apiSecret?: string;
  /** Whether the target keeps state; a stateless mock answers examples and skips state checks. */
  stateful: boolean;
  /** Ids the checks may use; checks that need a missing one are skipped. */
  fixtures: Fixtures;
  /** Bounds of each request (conformance/bounded-fetch.ts `defaultLimits` for any left out). */
  limits?: Partial<Limits>;
  /** A check or step answered with the documented 501 `not_implemented` is skipped, not failed (a service moving over one operation at a time). */
  skipNotImplemented?: boolean;
  /** Set for a run that gives up on a target that stopped answering (stall.ts); without it every request waits its timeout. */
  stall?: StallGuard;
}
