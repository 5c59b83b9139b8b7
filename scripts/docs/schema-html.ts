// Fields (fields.ts) as HTML: a list a reader scans like Stripe's, each field its name, type,
// "required", description and limits; an object's own fields and a union's variants folded
// into native <details> (open and close without JavaScript, announced by screen readers).
import type { Field, Shape, Variant } from "./fields.js";
import { escapeHtml, inlineCode, renderInline, renderMarkdown } from "./markdown.js";

const deprecatedBadge = (deprecated: Field["deprecated"]) =>
  deprecated
    ? ` <span class="badge badge-deprecated">Deprecated</span>${deprecated.at || deprecated.sunset ? `<span class="dates">${[deprecated.at ? `since ${escapeHtml(deprecated.at)}` : "", deprecated.sunset ? `removed after ${escapeHtml(deprecated.sunset)}` : ""].filter(Boolean).join(", ")}</span>` : ""}`
    : "";

const limits = (constraints: string[]) => (constraints.length ? `<p class="limits">${constraints.map(renderInline).join(" · ")}</p>` : "");
const rulesHtml = (rules: string[] | undefined) =>
  rules?.length ? `<ul class="rules">${rules.map((rule) => `<li><span class="rule-label">Rule:</span> ${renderInline(rule)}</li>`).join("")}</ul>` : "";
const closedNote = (closed: boolean | undefined) => (closed ? '<p class="closed">No other fields: an unlisted field is refused with 400.</p>' : "");

function variantsHtml(variants: Variant[], owner: string): string {
  return `<div class="variants"><p class="variants-lead">One of ${variants.length}:</p>${variants
    .map(
      (variant) =>
        `<details class="variant"><summary>${escapeHtml(variant.title)}${owner ? ` <span class="of">(${escapeHtml(owner)})</span>` : ""}</summary>${variant.description ? renderMarkdown(variant.description) : ""}${fieldsHtml(variant.fields)}${rulesHtml(variant.rules)}${closedNote(variant.closed)}</details>`,
    )
    .join("")}</div>`;
}

function childrenHtml(field: Field): string {
  const inner = `${rulesHtml(field.rules)}${field.variants ? variantsHtml(field.variants, field.name) : ""}${field.fields?.length ? fieldsHtml(field.fields) : ""}${closedNote(field.closed)}`;
  if (!inner) return "";
  const count = field.fields?.length ?? field.variants?.length ?? 0;
  const what = field.variants ? `${count} variants` : `${count} field${count === 1 ? "" : "s"}`;
  return `<details class="children"><summary>${field.type.startsWith("array") ? "Each item" : "Fields"} of ${inlineCode(field.name)} (${what})</summary>${inner}</details>`;
}

/** A list of fields. */
export function fieldsHtml(fields: Field[] | undefined): string {
  if (!fields?.length) return "";
  return `<ul class="fields">${fields
    .map(
      (field) =>
        `<li class="field"><div class="field-head">${inlineCode(field.name)} <span class="type">${escapeHtml(field.type)}</span>${field.required ? ' <span class="required">required</span>' : ""}${deprecatedBadge(field.deprecated)}</div>${field.description ? `<div class="field-text">${renderMarkdown(field.description)}</div>` : ""}${limits(field.constraints)}${childrenHtml(field)}</li>`,
    )
    .join("")}</ul>`;
}

/** A body (request or response): its type line when it is no object, its fields, variants and rules. */
export function shapeHtml(shape: Shape): string {
  const head = shape.fields || shape.variants ? "" : `<p><span class="type">${escapeHtml(shape.type)}</span></p>${limits(shape.constraints)}`;
  return `${head}${rulesHtml(shape.rules)}${shape.variants ? variantsHtml(shape.variants, "") : ""}${fieldsHtml(shape.fields)}${closedNote(shape.closed)}`;
}

export { deprecatedBadge };
