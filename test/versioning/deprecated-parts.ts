// The deprecation rule of docs/versioning.md, checked on a document: every part marked
// `deprecated: true` carries `x-deprecated-at` and `x-sunset`, at least six months apart.
import type { Node } from "../support/document.js";

const sixMonthsMs = 182 * 24 * 60 * 60 * 1000;

/** One line per deprecated part that breaks the rule, naming its JSON pointer. */
export function deprecationProblems(doc: Node): string[] {
  const problems: string[] = [];
  const walk = (node: Node, ptr: string): void => {
    if (node === null || typeof node !== "object") return;
    if (node.deprecated === true) {
      const since = Date.parse(node["x-deprecated-at"]);
      const sunset = Date.parse(node["x-sunset"]);
      if (Number.isNaN(since)) problems.push(`${ptr}: deprecated without a valid x-deprecated-at`);
      if (Number.isNaN(sunset)) problems.push(`${ptr}: deprecated without a valid x-sunset`);
      else if (sunset - since < sixMonthsMs) problems.push(`${ptr}: x-sunset less than six months after x-deprecated-at`);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${ptr}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  walk(doc, "");
  return problems;
}
