// Runs the shipped Arazzo workflows (openapi/integration.arazzo.yaml) with `redocly respect`
// against a base URL, with the demo application's credentials and records as inputs, and
// reads Respect's JSON report.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appA, appB, recordsOf } from "../support/demo.js";
import { successExample } from "../support/document.js";
import { bin, root, run } from "../tooling/run.js";

export const workflowsFile = join(root, "openapi/integration.arazzo.yaml");

/** The workflows that need state and a second application: a server's, not a mock's. */
export const statefulWorkflows = ["stateful-reads", "tenant-isolation"];

const idOf = (operationId: Parameters<typeof successExample>[0]) => (successExample(operationId) as { result: { id: string } }).result.id;

/** Inputs for the demo data: the records the document's examples show belong to application A. */
export const demoInputs: Record<string, string> = {
  token: appA.apiKey,
  apiKey: appA.apiKey,
  apiSecret: appA.apiSecret,
  widgetId: idOf("readWidget"),
  userId: recordsOf(appA).users[0]!,
  smsProviderId: idOf("updateSmsProvider"),
  webhookId: idOf("readWebhook"),
  otherToken: appB.apiKey,
};

export interface Step {
  workflowId: string;
  stepId: string;
  status: string;
  /** `METHOD url → status` and the failed checks, for messages. */
  detail: string;
  /** The request body sent, if any. */
  body?: unknown;
}

export interface Respected {
  code: number;
  output: string;
  steps: Step[];
}

export async function respect(baseUrl: string, skip: string[] = []): Promise<Respected> {
  const dir = mkdtempSync(join(tmpdir(), "contract-respect-"));
  try {
    const report = join(dir, "report.json");
    const input = Object.entries(demoInputs)
      .map(([k, v]) => `${k}=${v}`)
      .join(",");
    const args = ["respect", workflowsFile, "-S", `openapi=${baseUrl}`, "-i", input, "-J", report, ...skip.flatMap((w) => ["--skip", w])];
    const { code, output } = await run(bin("redocly"), args);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const json: any = JSON.parse(readFileSync(report, "utf8"));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const steps: Step[] = Object.values<any>(json.files).flatMap((file) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      file.executedWorkflows.flatMap((w: any) =>
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        w.executedSteps.map((s: any) => ({
          workflowId: w.workflowId,
          stepId: s.stepId,
          status: s.status,
          body: s.request?.body,
          detail: `${s.request?.method?.toUpperCase()} ${s.request?.url} → ${s.response?.statusCode}: ${s.checks
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            .filter((c: any) => !c.passed)
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            .map((c: any) => c.message.split("\n")[0])
            .join("; ")}`,
        })),
      ),
    );
    return { code, output, steps };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The steps the workflows file declares, `workflowId/stepId`, in order. */
export function declaredSteps(): string[] {
  const text = readFileSync(workflowsFile, "utf8");
  const out: string[] = [];
  let workflow = "";
  for (const line of text.split("\n")) {
    const w = /^  - workflowId: (\S+)$/.exec(line);
    if (w) workflow = w[1]!;
    const s = /^      - stepId: (\S+)$/.exec(line);
    if (s) out.push(`${workflow}/${s[1]}`);
  }
  return out;
}
