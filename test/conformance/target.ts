/** An implementation of the API that the conformance checks run against. */
export interface Target {
  /** Shown in the report, e.g. `mock`, `server`, or the URL. */
  name: string;
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** API key of the application whose demo records the checks read (application A). */
  apiKey: string;
  /** Its API secret (POST /notifications). */
  apiSecret: string;
  /** Whether the target keeps state; a stateless mock answers examples and skips state checks. */
  stateful: boolean;
  /** Credentials of a second application, for the cross-application isolation checks. */
  otherApplication?: { apiKey: string; apiSecret: string };
}
