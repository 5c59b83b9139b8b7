// `authsvc-api conformance`: the conformance run against any implementation of the API: the
// shipped Arazzo workflows through Redocly's `respect`, then the checks only the TypeScript
// suite can express. Prints one line per workflow step and per check as each finishes (the
// steps when Respect ends) and a summary (or, with --format json, one JSON report); gives up
// on a target that stopped answering (conformance/stall.ts);
// exits 0 when no check fails, 1 when one does (or, with --fail-on-skip, is skipped), 2
// with one line on bad arguments, a target that cannot be reached, or fixture errors.
import { parseArgs } from "node:util";
import { defaultLimits } from "../conformance/bounded-fetch.js";
import { FixturesError, readFixtures } from "../conformance/fixtures.js";
import { preflight } from "../conformance/preflight.js";
import { jsonReport } from "../conformance/report.js";
import { StallGuard } from "../conformance/stall.js";
import { outcomeLine, runChecks, runFailed, summary, TargetUnreachable, type Fixtures, type Outcome, type Target } from "../conformance/suite.js";
import { runWorkflows, workflowSteps } from "../conformance/workflows.js";

const usage = `usage: authsvc-api conformance --base-url URL --api-key KEY [--api-secret SECRET]
                               [--fixtures FILE] [--format text|json] [--stateless] [--fail-on-skip]
                               [--skip-not-implemented]
                               [--request-timeout MS] [--max-response-bytes N] [--workflows-timeout MS]

  --base-url    the API's base URL, including /v1 (e.g. http://127.0.0.1:3000/v1)
  --api-key     the API key of the application checked
  --api-secret  its API secret (POST /notifications); without it those checks are skipped
  --fixtures    a JSON file naming records the application holds, all optional:
                  { "widget": "…", "user": "…", "smsProvider": "<the default provider>",
                    "webhook": "…", "otherApplication": { "apiKey": "…", "apiSecret": "…" },
                    "disposable": { "webhook": ["…"] } }
                checks that need a missing one are skipped and named; each is asked for
                first, and one the target does not hold is a fixture error (exit 2);
                "disposable" records are used up by the checks of deleting operations,
                which run last (the shared ones are never deleted)
  --format      text (default): a line per check and a summary; json: one report for CI
  --stateless   the target keeps no state (a mock): skip the checks that need state
  --fail-on-skip  a skipped check fails the run (CI: a missing fixture cannot hide a check)
  --skip-not-implemented  a check or workflow step answered with the documented 501
                not_implemented is skipped, not failed: a service moving to the contract one
                operation at a time checks what it implements (--fail-on-skip still fails it)
  --request-timeout     ms for each answer, headers and whole body (default ${defaultLimits.timeoutMs})
  --max-response-bytes  the largest body read (default ${defaultLimits.maxBodyBytes}); a larger one fails its check
  --workflows-timeout   ms for the whole redocly respect run, then it is killed and its steps
                        fail (default: 60000 + the request timeout per workflow step)

It runs the Arazzo workflows shipped with the contract (redocly respect), then the checks
only the TypeScript suite can express; one report, one exit code.
The run changes the target: the workflows set the SMS provider's countries, patterns and
log_messages to the documented example's, save the e-mail transport (SES, then SendGrid)
and schedule four notifications for everyone in 2030; the checks move the provider and
back and save the documented transport again.
A redirect is never followed (credentials go to the --base-url's origin only): a 3xx fails
the check it answers, as a late, endless or oversized answer does. Once three operations in
a row get no complete answer within --request-timeout, the target is taken to have stopped
answering: nothing more is sent, and every step and check left is skipped, naming why.
Each line is printed as its step or check finishes (the workflow steps when respect ends).
Exit code: 0 all ran checks passed, 1 a check failed (or was skipped, with --fail-on-skip),
2 bad arguments, fixture errors, or a target that cannot be reached.`;

class UsageError extends Error {}

interface Parsed {
  target: Target;
  format: "text" | "json";
  failOnSkip: boolean;
  workflowsTimeoutMs: number | undefined;
}

/** A flag's value as a whole number ≥ 1, or undefined when the flag is not given. */
function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,11}$/.test(value)) throw new UsageError(`--${name} must be a whole number above 0, got "${value}"`);
  return Number(value);
}

function parse(argv: string[]): Parsed | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        "base-url": { type: "string" },
        "api-key": { type: "string" },
        "api-secret": { type: "string" },
        fixtures: { type: "string" },
        format: { type: "string", default: "text" },
        stateless: { type: "boolean", default: false },
        "fail-on-skip": { type: "boolean", default: false },
        "skip-not-implemented": { type: "boolean", default: false },
        // Earlier flags of `npm run conformance`: state checks now run unless --stateless, and
        // the other application's key may come from the command line instead of the file.
        stateful: { type: "boolean", default: false },
        "other-api-key": { type: "string" },
        "other-api-secret": { type: "string" },
        "request-timeout": { type: "string" },
        "max-response-bytes": { type: "string" },
        "workflows-timeout": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]);
  }
  if (values.help) return "help";
  const baseUrl = values["base-url"]?.replace(/\/+$/, "");
  if (!baseUrl) throw new UsageError("--base-url is required");
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  const apiKey = values["api-key"];
  if (!apiKey) throw new UsageError("--api-key is required");
  if (values.format !== "text" && values.format !== "json") throw new UsageError(`--format must be text or json, got "${values.format}"`);
  if (values.stateful && values.stateless) throw new UsageError("give --stateful or --stateless, not both");
  const otherKey = values["other-api-key"];
  const otherSecret = values["other-api-secret"];
  if (Boolean(otherKey) !== Boolean(otherSecret)) throw new UsageError("give --other-api-key and --other-api-secret together");

  let fixtures: Fixtures = {};
  if (values.fixtures !== undefined) {
    try {
      fixtures = readFixtures(values.fixtures);
    } catch (error) {
      if (error instanceof FixturesError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (otherKey && otherSecret) fixtures = { ...fixtures, otherApplication: { apiKey: otherKey, apiSecret: otherSecret } };
  const apiSecret = values["api-secret"];
  const timeoutMs = positive("request-timeout", values["request-timeout"]);
  const maxBodyBytes = positive("max-response-bytes", values["max-response-bytes"]);
  const limits = { ...(timeoutMs ? { timeoutMs } : {}), ...(maxBodyBytes ? { maxBodyBytes } : {}) };
  return {
    format: values.format,
    failOnSkip: values["fail-on-skip"],
    workflowsTimeoutMs: positive("workflows-timeout", values["workflows-timeout"]),
    target: {
      name: baseUrl,
      baseUrl,
      apiKey,
      stall: new StallGuard(baseUrl, timeoutMs ?? defaultLimits.timeoutMs),
      ...(apiSecret ? { apiSecret } : {}),
      stateful: !values.stateless,
      fixtures,
      limits,
      ...(values["skip-not-implemented"] ? { skipNotImplemented: true } : {}),
    },
  };
}

export async function run(argv: string[]): Promise<number> {
  let parsed: Parsed | "help";
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`authsvc-api conformance: ${error.message} (--help for usage)`);
    return 2;
  }
  if (parsed === "help") {
    console.log(usage);
    return 0;
  }
  const { target, format, failOnSkip, workflowsTimeoutMs } = parsed;
  try {
    const fixtureErrors = await preflight(target);
    if (fixtureErrors.length > 0) {
      console.error(
        `authsvc-api conformance: ${fixtureErrors.length} fixture error${fixtureErrors.length === 1 ? "" : "s"} (the setup, not the service; no check ran):\n${fixtureErrors.map((e) => `  ${e}`).join("\n")}`,
      );
      return 2;
    }
    // In text, each line as its step or check finishes, so a slow target shows where it is.
    const print = (outcome: Outcome) => format === "text" && console.log(outcomeLine(outcome));
    const steps = await runWorkflows(target, { timeoutMs: workflowsTimeoutMs });
    steps.forEach(print);
    const outcomes = [...steps, ...(await runChecks(target, undefined, print))];
    if (format === "json")
      console.log(JSON.stringify({ ...jsonReport(target, outcomes), failOnSkip, result: runFailed(outcomes, { failOnSkip }) ? "fail" : "pass" }, null, 2));
    else console.log(`\n${workflowsLine(outcomes)}\n${summary(target, outcomes, { failOnSkip })}`);
    return runFailed(outcomes, { failOnSkip }) ? 1 : 0;
  } catch (error) {
    if (!(error instanceof TargetUnreachable)) throw error;
    console.error(`authsvc-api conformance: ${error.message}; is the service running there?`);
    return 2;
  }
}

/** `arazzo: 8 workflows (8 passed, 0 failed, 0 skipped), 26 steps by redocly respect`: the steps' share of the report. */
function workflowsLine(outcomes: Outcome[]): string {
  const byWorkflow = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    const workflow = (o.check as { workflow?: string }).workflow;
    if (workflow) byWorkflow.set(workflow, [...(byWorkflow.get(workflow) ?? []), o]);
  }
  const all = [...byWorkflow.values()];
  const failed = all.filter((steps) => steps.some((o) => o.status === "failed")).length;
  const skipped = all.filter((steps) => steps.every((o) => o.status === "skipped")).length;
  return `arazzo: ${all.length} workflows (${all.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped), ${workflowSteps().length} steps, by redocly respect`;
}
