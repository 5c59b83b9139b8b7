// The Arazzo workflows shipped beside the document (openapi/integration.arazzo.yaml, bundled
// to generated/integration.arazzo.json), run by Redocly's `respect` as the first part of
// `authsvc-api conformance`. Each step becomes one outcome of the report: passed when
// Respect's checks pass (its success criteria, and the status, content type and schema of
// the answer against the document) and the answer also holds the document's `format`s,
// which Respect's validator does not check (a `url` that is not a URI passes it). A
// workflow runs when the target has every input it names; otherwise each of its steps is
// skipped with the reason, as a check is.
// Bounded like the checks: Respect talks to the target through a loopback proxy that holds
// each answer to the run's limits and follows no redirect (respect-proxy.ts), and the
// process is killed when it outlives its time. The steps of a workflow that use nothing from
// one another (tenant-isolation's six 404s) run as workflows of one step each, so one
// failing step does not leave the others unrun.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { operations, type OperationId } from "../generated/operations.js";
import type { Check, Need } from "./check.js";
import { errorSchemaErrors, successSchemaErrors } from "./document.js";
import { invalidResponseCause, isNotImplemented, limitsOf, notImplementedHint, notImplementedReason } from "./http.js";
import { proxyProblem, proxyStalled, startRespectProxy, type RespectProxy } from "./respect-proxy.js";
import { skipReason, type Outcome } from "./suite.js";
import type { Target } from "./target.js";

// `conformance/` in the repository, `dist/conformance/` in the package: the bundled workflows
// sit beside the bundled document they name (`./openapi.json` resolved from `generated/`).
function bundledWorkflows(): string {
  for (const up of ["../", "../../"]) {
    const path = fileURLToPath(new URL(`${up}generated/integration.arazzo.json`, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error("conformance: generated/integration.arazzo.json not found beside the package");
}

export const workflowsFile = bundledWorkflows();

interface ArazzoStep {
  stepId: string;
  operationId: string;
}
interface ArazzoWorkflow {
  workflowId: string;
  steps: ArazzoStep[];
  /** Why the workflow needs a target that keeps state (the file's `x-needs-state`). */
  "x-needs-state"?: string;
}

/** What each workflow input is, in the command's terms: a fixture, the API secret, or (undefined) the API key. */
const inputNeeds: Record<string, Need | undefined> = {
  token: undefined,
  apiKey: undefined,
  apiSecret: "apiSecret",
  widgetId: "widget",
  userId: "user",
  smsProviderId: "smsProvider",
  webhookId: "webhook",
  otherToken: "otherApplication",
};

/** The workflow inputs for a target: its credentials and fixtures under the names the file uses. */
export function workflowInputs(target: Target): Record<string, string> {
  const { fixtures } = target;
  const inputs: Record<string, string | undefined> = {
    token: target.apiKey,
    apiKey: target.apiKey,
    apiSecret: target.apiSecret,
    widgetId: fixtures.widget,
    userId: fixtures.user,
    smsProviderId: fixtures.smsProvider,
    webhookId: fixtures.webhook,
    otherToken: fixtures.otherApplication?.apiKey,
  };
  return Object.fromEntries(Object.entries(inputs).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

const stepOperation = (step: ArazzoStep) => step.operationId.replace(/^\$sourceDescriptions\.openapi\./, "") as OperationId;

/** One report entry per declared step; a step is judged by Respect, never run on its own. */
export interface StepCheck extends Check {
  workflow: string;
  stepId: string;
}

/** Every step of every workflow of the file, as report entries with the needs of its workflow. */
export function workflowSteps(file = workflowsFile): StepCheck[] {
  const workflows = (JSON.parse(readFileSync(file, "utf8")) as { workflows: ArazzoWorkflow[] }).workflows;
  return workflows.flatMap((workflow) => {
    const named = [...new Set([...JSON.stringify(workflow).matchAll(/\$inputs\.(\w+)/g)].map((match) => match[1]!))];
    const unknown = named.filter((input) => !(input in inputNeeds));
    if (unknown.length > 0) throw new Error(`conformance: workflow ${workflow.workflowId} names inputs the command cannot fill: ${unknown.join(", ")}`);
    const needs = named.map((input) => inputNeeds[input]).filter((need): need is Need => need !== undefined);
    const statefulBecause = workflow["x-needs-state"];
    return workflow.steps.map((step) => ({
      name: `${stepOperation(step)}: workflow ${workflow.workflowId}, step ${step.stepId}`,
      operationId: stepOperation(step),
      workflow: workflow.workflowId,
      stepId: step.stepId,
      ...(statefulBecause ? { statefulBecause } : {}),
      ...(needs.length > 0 ? { needs } : {}),
      run: () => Promise.reject(new Error("a workflow step runs inside redocly respect")),
    }));
  });
}

/** One step as Respect's JSON report (`-J`) records it. */
interface RespectStep {
  stepId: string;
  status: string;
  request?: { method?: string; url?: string };
  response?: { statusCode?: number; body?: unknown; headers?: Record<string, string> };
  checks: { name: string; passed: boolean; message: string }[];
}

// Respect answers what it got; the document's formats are judged here, with the suite's validator.
function formatErrors(operationId: OperationId, step: RespectStep): string | undefined {
  const status = step.response?.statusCode;
  const body = step.response?.body;
  if (status === undefined || body === undefined || typeof body !== "object") return undefined;
  if (status === (operations[operationId] as { successStatus: number }).successStatus) return successSchemaErrors(operationId, body);
  return status >= 400 ? errorSchemaErrors(operationId, status, body) : undefined;
}

function judge(check: StepCheck, step: RespectStep | undefined, failedBefore: string | undefined, proxy: RespectProxy, target: Target): Outcome {
  if (!step && failedBefore) return { check, status: "skipped", detail: `not run: step ${failedBefore} of the workflow failed` };
  // A step Respect was asked to run and did not report is a failure: never a quiet skip.
  if (!step) return { check, status: "failed", detail: "not run: redocly respect reported nothing for this step (it stopped early)" };
  // As for a check: a 5xx shows the X-Request-Id that finds the failure in the target's log.
  const status = step.response?.statusCode ?? 0;
  const requestId = status >= 500 ? step.response?.headers?.["x-request-id"] : undefined;
  // Respect records no request when it could not read the answer (a body that is not JSON):
  // the operation's own method and path name it then.
  const { method: declared, path } = operations[check.operationId];
  const method = step.request?.method?.toUpperCase() || declared.toUpperCase();
  const url = step.request?.url || `${proxy.baseUrl}${path}`;
  // An answer the proxy cut (late, endless, too large, a redirect, not JSON) is named as
  // such, not as its 502, and a request it did not send (the target had stopped answering)
  // is skipped: from the 502 Respect recorded, else from the proxy's record.
  const body = step.response?.body as { type?: unknown; detail?: unknown } | undefined;
  const recorded = status === 502 && (body?.type === proxyProblem || body?.type === proxyStalled);
  const cut = recorded ? { detail: String(body.detail), stalled: body.type === proxyStalled } : proxy.cut(method, url);
  if (cut) return { check, status: cut.stalled ? "skipped" : "failed", detail: cut.detail };
  // Respect records no body for some answers: the proxy saw it.
  const answered = step.response?.body === undefined ? proxy.answer(method, url) : undefined;
  const contentType = step.response?.headers?.["content-type"] ?? answered?.contentType;
  const answer = step.response?.body ?? answered?.body;
  const notImplemented = isNotImplemented(status, contentType, answer);
  if (target.skipNotImplemented && notImplemented) return { check, status: "skipped", detail: notImplementedReason };
  const where = `${method} ${proxy.targetUrl(url)}${status ? ` → ${status}` : ""}${requestId ? ` (X-Request-Id: ${requestId})` : ""}`;
  // What the answer itself says went wrong comes first: the checks Respect failed follow from it.
  const cause = invalidResponseCause(status, answer) ?? (notImplemented ? notImplementedHint : undefined);
  const failed = [
    ...(cause ? [cause] : []),
    ...step.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${stripVTControlCharacters(c.message).split("\n").filter(Boolean).slice(0, 3).join(" ")}`),
  ];
  const formats = formatErrors(check.operationId, step);
  if (formats) failed.push(`body does not match the ${step.response?.statusCode} response schema: ${formats}`);
  return failed.length === 0 && step.status === "success"
    ? { check, status: "passed" }
    : { check, status: "failed", detail: `${where}: ${failed.join("; ") || step.status}` };
}

/** The Redocly CLI this package depends on (its version is the one the workflows are checked with). */
function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve("@redocly/cli/package.json"), "..", "bin", "cli.js");
}

/** How a Respect run ended: its exit code, or why it gave no report. */
type RespectEnd = { code: number | null; output: string; killedAfterMs?: number };

function runRespect(args: string[], env: Record<string, string>, timeoutMs: number): Promise<RespectEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [redoclyBin(), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    // Only the end of what it prints is ever shown: keep that, not everything.
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, ...(killed ? { killedAfterMs: timeoutMs } : {}) });
    });
  });
}

/** The file Respect runs: the shipped one, with each workflow whose steps are independent split into one workflow per step. */
function independentSteps(file: string, dir: string): { file: string; original: Map<string, string> } {
  const arazzo: any = JSON.parse(readFileSync(file, "utf8"));
  const original = new Map<string, string>();
  const workflows = (arazzo.workflows as ArazzoWorkflow[]).flatMap((workflow) => {
    // A step that reads an earlier step's outputs needs it to have run: such a workflow stays whole.
    if (workflow.steps.length < 2 || JSON.stringify(workflow.steps).includes("$steps.")) {
      original.set(workflow.workflowId, workflow.workflowId);
      return [workflow];
    }
    const { outputs: _outputs, ...rest } = workflow as ArazzoWorkflow & { outputs?: unknown };
    return workflow.steps.map((step) => {
      const workflowId = `${workflow.workflowId}--${step.stepId}`;
      original.set(workflowId, workflow.workflowId);
      return { ...rest, workflowId, steps: [step] };
    });
  });
  // The document is named relative to the shipped file; the derived one lives elsewhere.
  const sourceDescriptions = arazzo.sourceDescriptions.map((source: any) => ({ ...source, url: resolve(dirname(file), source.url) }));
  const derived = join(dir, "workflows.arazzo.json");
  writeFileSync(derived, JSON.stringify({ ...arazzo, sourceDescriptions, workflows }));
  return { file: derived, original };
}

/** What the command may change about the Respect run. */
export interface WorkflowOptions {
  /** The whole Respect run, then it is killed and its steps fail (default: 60 s plus the request timeout per step). */
  timeoutMs?: number | undefined;
  file?: string;
}

/**
 * Runs every workflow the target can run in one `redocly respect` process and returns one
 * outcome per declared step, in the file's order (skipped steps with their reason).
 */
export async function runWorkflows(target: Target, options: WorkflowOptions = {}): Promise<Outcome[]> {
  const file = options.file ?? workflowsFile;
  const steps = workflowSteps(file);
  const runnable = new Set(steps.filter((step) => !skipReason(step, target)).map((step) => step.workflow));
  const recorded = new Map<string, RespectStep[]>();
  let unfinished: string | undefined;
  const limits = limitsOf(target);
  const proxy = await startRespectProxy(target.baseUrl, limits, target.stall);
  const dir = mkdtempSync(join(tmpdir(), "authsvc-respect-"));
  try {
    // A target that stopped answering before the workflows gets no Respect run: each step is skipped, naming why.
    const stalledBefore = target.stall?.reason;
    if (runnable.size > 0 && !stalledBefore) {
      const report = join(dir, "respect.json");
      const derived = independentSteps(file, dir);
      const selected = [...derived.original].filter(([, workflow]) => runnable.has(workflow)).map(([id]) => id);
      const timeoutMs = options.timeoutMs ?? 60_000 + limits.timeoutMs * steps.length;
      const args = [
        "respect",
        derived.file,
        "--server",
        `openapi=${proxy.baseUrl}`,
        "--json-output",
        report,
        // The proxy answers first (its bound is the request timeout); this only backs it up.
        "--max-fetch-timeout",
        String(limits.timeoutMs + 5_000),
        ...selected.flatMap((id) => ["--workflow", id]),
      ];
      // Inputs through the environment, so no key or secret shows in the process list; no
      // usage data leaves the machine on the user's behalf.
      const env = {
        REDOCLY_CLI_RESPECT_INPUT: JSON.stringify(workflowInputs(target)),
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        NO_COLOR: "1",
      };
      const end = await runRespect(args, env, timeoutMs);
      if (end.killedAfterMs !== undefined) unfinished = `not finished: redocly respect was stopped after ${end.killedAfterMs} ms (--workflows-timeout)`;
      else if (!existsSync(report)) unfinished = `not finished: redocly respect wrote no report (exit ${end.code}): ${end.output.trim().split("\n").slice(-3).join(" ")}`;
      else {
        const json: any = JSON.parse(readFileSync(report, "utf8"));
        for (const workflow of Object.values<any>(json.files).flatMap((f) => f.executedWorkflows)) {
          const id = derived.original.get(workflow.workflowId) ?? workflow.workflowId;
          recorded.set(id, [...(recorded.get(id) ?? []), ...workflow.executedSteps]);
        }
      }
    }
    return steps.map((check) => {
      const reason = skipReason(check, target);
      if (reason) return { check, status: "skipped", detail: reason };
      if (stalledBefore) return { check, status: "skipped", detail: stalledBefore };
      if (unfinished) return { check, status: "failed", detail: unfinished };
      const executed = recorded.get(check.workflow) ?? [];
      const failedBefore = executed.find((s) => s.status !== "success")?.stepId;
      return judge(
        check,
        executed.find((s) => s.stepId === check.stepId),
        failedBefore,
        proxy,
        target,
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await proxy.close();
  }
}
