// The contract diff: every change between two bundled OpenAPI documents with the semver
// impact docs/versioning.md gives it (`redocly diff` under openapi/redocly.yaml, plus
// policy.ts), and whether the head's version covers them: a major change needs a new major
// version, an addition at least a new minor. `npm run diff` (main.ts), the release gate and
// the changelog (scripts/release/) all call `diffFiles`.
import { applyPolicy } from "./policy.js";
import { impacts, redoclyDiff, type Impact, type Report, type ReportedChange } from "./redocly.js";

export type { Impact } from "./redocly.js";

export interface Change {
  impact: Impact;
  kind: ReportedChange["kind"];
  /** The rules that judged it (Redocly's and policy.ts's); empty for a plain addition or edit. */
  rules: string[];
  /** One sentence for humans. */
  message: string;
  /** Where it is reached from, e.g. `#/paths/~1webhooks/get/parameters/1/schema`, and the property that changed. */
  path: string;
  property?: string;
  /** The operation it is in, e.g. `GET /webhooks`; empty for document-wide changes. */
  operation: string;
}

export interface DiffResult {
  baseVersion: string;
  headVersion: string;
  changes: Change[];
  count: Record<Impact, number>;
  /** The smallest release the changes need: the highest impact. */
  required: Impact;
  /** The lowest version that release may have, from the base version. */
  lowest: string;
  /** What the exit code says: the head version is below `lowest` (patch changes never fail). */
  failed: boolean;
}

type Version = [number, number, number];
const parse = (version: string): Version | undefined => {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
};
const below = (a: Version, b: Version): boolean => (a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2]);

/** The version a release of `impact` after `base` needs at least (patch: none beyond the base). */
export function lowestVersion(base: string, impact: Impact): string {
  const v = parse(base);
  if (!v) return base;
  if (impact === "major") return `${v[0] + 1}.0.0`;
  if (impact === "minor") return `${v[0]}.${v[1] + 1}.0`;
  return base;
}

const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const unescapePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** `#/paths/~1webhooks~1{id}/get/...` → `GET /webhooks/{id}`. */
function operationOf(path: string): string {
  const [, paths, template, method] = path.split("/");
  if (paths !== "paths" || !template) return "";
  return method && methods.has(method) ? `${method.toUpperCase()} ${unescapePointer(template)}` : unescapePointer(template);
}

function describe(change: ReportedChange): string {
  if (change.verdicts.length > 0) return change.verdicts.map((v) => v.message.replace(/\.$/, "")).join("; ");
  // Inside an operation the operation names the start; the rest says where in it.
  const segments = change.path.replace(/^#\//, "").split("/").map(unescapePointer);
  const inside = operationOf(change.path) && methods.has(segments[2] ?? "") ? segments.slice(3) : segments;
  const where = inside.join(" › ") || segments.join(" › ");
  return `${where}${change.property ? ` › ${change.property}` : ""} ${change.kind}`;
}

/** The diff of two bundled files. */
export const diffFiles = (baseFile: string, headFile: string): DiffResult => judge(redoclyDiff(baseFile, headFile));

/** The project's verdict on a `redocly diff` report. */
export function judge(report: Report): DiffResult {
  const changes: Change[] = report.changes
    .map(applyPolicy)
    .map((c) => ({
      impact: c.impact,
      kind: c.kind,
      rules: [...new Set(c.verdicts.map((v) => v.ruleId))],
      message: describe(c),
      path: c.path,
      ...(c.property ? { property: c.property } : {}),
      operation: operationOf(c.path),
    }))
    .sort((a, b) => impacts.indexOf(b.impact) - impacts.indexOf(a.impact));
  const count = { major: 0, minor: 0, patch: 0 };
  for (const c of changes) count[c.impact]++;
  const required: Impact = count.major > 0 ? "major" : count.minor > 0 ? "minor" : "patch";
  const { base: baseVersion, revision: headVersion } = report.infoVersions;
  const lowest = lowestVersion(baseVersion, required);
  const head = parse(headVersion);
  const floor = parse(lowest);
  const failed = required !== "patch" && (!head || !floor || below(head, floor));
  return { baseVersion, headVersion, changes, count, required, lowest, failed };
}
