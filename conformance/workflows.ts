// The Arazzo workflows shipped beside the document (openapi/integration.arazzo.yaml, bundled
// to generated/integration.arazzo.json), run by Redocly's `respect` as the first part of
// `authsvc-api conformance`. Each step becomes one outcome of the report: passed when
// Respect's checks pass (its success criteria, and the status, content type and schema of
// the answer against the document) and the answer also holds the document's `format`s,
// which Respect's validator does not check (a `url` that is not a URI passes it). A
// workflow runs when the target has every input it names; otherwise each of its steps is
// skipped with the reason, as a check is.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { operations, type OperationId } from "../generated/operations.js";
import type { Check, Need } from "./check.js";
import { problemSchemaErrors, successSchemaErrors } from "./document.js";
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
  return status >= 400 ? problemSchemaErrors(body) : undefined;
}

function judge(check: StepCheck, step: RespectStep | undefined, failedBefore: string | undefined): Outcome {
  if (!step) return { check, status: "skipped", detail: `not run: step ${failedBefore ?? "?"} of the workflow failed` };
  // As for a check: a 5xx shows the X-Request-Id that finds the failure in the target's log.
  const status = step.response?.statusCode ?? 0;
  const requestId = status >= 500 ? step.response?.headers?.["x-request-id"] : undefined;
  const where = `${step.request?.method?.toUpperCase()} ${step.request?.url} → ${status}${requestId ? ` (X-Request-Id: ${requestId})` : ""}`;
  const failed = step.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${stripVTControlCharacters(c.message).split("\n").filter(Boolean).slice(0, 3).join(" ")}`);
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

function runRespect(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [redoclyBin(), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/**
 * Runs every workflow the target can run in one `redocly respect` process and returns one
 * outcome per declared step, in the file's order (skipped steps with their reason).
 */
export async function runWorkflows(target: Target, file = workflowsFile): Promise<Outcome[]> {
  const steps = workflowSteps(file);
  const runnable = [...new Set(steps.filter((step) => !skipReason(step, target)).map((step) => step.workflow))];
  const recorded = new Map<string, RespectStep[]>();
  if (runnable.length > 0) {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-respect-"));
    try {
      const report = join(dir, "respect.json");
      const args = ["respect", file, "--server", `openapi=${target.baseUrl}`, "--json-output", report, ...runnable.flatMap((id) => ["--workflow", id])];
      // Inputs through the environment, so no key or secret shows in the process list; no
      // usage data leaves the machine on the user's behalf.
      const env = {
        REDOCLY_CLI_RESPECT_INPUT: JSON.stringify(workflowInputs(target)),
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        NO_COLOR: "1",
      };
      const { code, output } = await runRespect(args, env);
      if (!existsSync(report)) throw new Error(`redocly respect wrote no report (exit ${code}): ${output.slice(-2000)}`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const json: any = JSON.parse(readFileSync(report, "utf8"));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const workflow of Object.values<any>(json.files).flatMap((f) => f.executedWorkflows)) recorded.set(workflow.workflowId, workflow.executedSteps);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return steps.map((check) => {
    const reason = skipReason(check, target);
    if (reason) return { check, status: "skipped", detail: reason };
    const executed = recorded.get(check.workflow) ?? [];
    const failedBefore = executed.find((s) => s.status !== "success")?.stepId;
    return judge(
      check,
      executed.find((s) => s.stepId === check.stepId),
      failedBefore,
    );
  });
}
