// The three judgements of docs/versioning.md that `redocly diff` has no rule for, applied to
// its report. Everything else is the `diff:` section of openapi/redocly.yaml.
import type { Impact, ReportedChange } from "./redocly.js";

/** Rule ids of this project's own judgements (they appear beside Redocly's in reports). */
export const ownRules = {
  /** A `default` changed in a parameter or request body: a client that omits the value now gets another behaviour. */
  requestDefault: "request-default-changed",
  /** A value added to a request enum: something new a client may send, so a minor release. */
  requestEnum: "request-enum-values-added",
  /** `deprecated: true` set: a minor release, so integrators see it in the version. */
  deprecation: "deprecated",
} as const;

// A parameter (of the operation or of its path) or the request body, never a response.
const inRequest = /^#\/paths\/[^/]+\/(?:[a-z]+\/)?(?:parameters|requestBody)\//;

/** The change with the project's own judgement applied (impact raised, rule named). */
export function applyPolicy(change: ReportedChange): ReportedChange {
  if (change.kind !== "modified") return change;
  if (change.property === "default" && inRequest.test(`${change.path}/`)) {
    return raise(change, "major", ownRules.requestDefault, `\`default\` changed from ${show(change.base?.value)} to ${show(change.revision?.value)} in a request.`);
  }
  if (change.property === "enum" && inRequest.test(`${change.path}/`)) {
    const before = new Set(Array.isArray(change.base?.value) ? change.base.value.map((v) => JSON.stringify(v)) : []);
    const added = (Array.isArray(change.revision?.value) ? change.revision.value : []).filter((v) => !before.has(JSON.stringify(v)));
    if (added.length > 0) return raise(change, "minor", ownRules.requestEnum, `Enum value(s) ${added.map(show).join(", ")} added in a request.`);
  }
  if (change.property === "deprecated" && change.revision?.value === true) {
    return raise(change, "minor", ownRules.deprecation, `${change.typeName} deprecated.`);
  }
  return change;
}

const order: Impact[] = ["patch", "minor", "major"];

function raise(change: ReportedChange, impact: Impact, ruleId: string, message: string): ReportedChange {
  const higher = order.indexOf(impact) > order.indexOf(change.impact) ? impact : change.impact;
  return { ...change, impact: higher, verdicts: [...change.verdicts, { ruleId, impact, message }] };
}

const show = (value: unknown): string => (value === undefined ? "none" : `\`${JSON.stringify(value)}\``);
