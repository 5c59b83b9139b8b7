// The page as Markdown for assistants and scripts (the llms.txt proposal, llmstxt.org):
// llms.txt lists every guide and operation with a link to its own Markdown file
// (guides/<slug>.md, operations/<operationId>.md), written from the same model as the HTML
// (operation.ts, fields.ts), so the two say the same.
import { type Field, flatten, type Shape } from "./fields.js";
import type { OperationHistory } from "./history.js";
import type { Section } from "./markdown.js";
import type { Operation, Server } from "./operation.js";
import type { Sample } from "./samples.js";

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

function fieldLines(fields: Field[] | undefined): string[] {
  return flatten(fields).map(({ path, field }) => {
    const facts = [field.type, field.required ? "required" : "optional", ...(field.deprecated ? ["deprecated"] : [])].join(", ");
    const limits = field.constraints.length ? ` Limits: ${field.constraints.join("; ")}.` : "";
    return `- \`${path}\` (${facts})${field.description ? `: ${field.description.replace(/\s*\n\s*/g, " ")}` : ""}${limits}`;
  });
}

function shapeMarkdown(shape: Shape): string {
  const out: string[] = [];
  for (const rule of shape.rules ?? []) out.push(`Rule: ${rule}`);
  if (shape.variants) {
    for (const variant of shape.variants) {
      out.push(
        `One of the variants: **${variant.title}**${variant.description ? `. ${variant.description.replace(/\s*\n\s*/g, " ")}` : ""}`,
        "",
        ...fieldLines(variant.fields),
      );
      for (const rule of variant.rules) out.push(`- Rule: ${rule}`);
      out.push("");
    }
  }
  if (shape.fields) out.push(...fieldLines(shape.fields));
  if (!shape.fields && !shape.variants) out.push(`${shape.type}${shape.constraints.length ? ` (${shape.constraints.join("; ")})` : ""}`);
  if (shape.closed) out.push("", "No other fields: an unlisted field is refused with 400.");
  return out.join("\n");
}

/** One operation as Markdown. */
export function operationMarkdown(operation: Operation, version: string, production: Server, samples: Sample[], history: OperationHistory | undefined): string {
  const out = [`# ${operation.summary}`, "", `\`${operation.method} ${operation.path}\` (${operation.tag}; API version ${version}; base URL ${production.url})`, ""];
  if (operation.deprecated) out.push(`**Deprecated**${operation.deprecated.sunset ? `, removed after ${operation.deprecated.sunset}` : ""}.`, "");
  out.push(
    operation.description.trim(),
    "",
    "## Authentication",
    "",
    operation.security.map((s) => `\`${s.header}\`${s.header === "Authorization" ? ": `Bearer <API key>`" : ""}`).join(" and "),
    "",
  );
  for (const where of ["path", "query", "header"]) {
    const list = operation.parameters.filter((p) => p.in === where);
    if (!list.length) continue;
    out.push(`## ${where[0]!.toUpperCase()}${where.slice(1)} parameters`, "", "| name | type | required | description | limits |", "| --- | --- | --- | --- | --- |");
    for (const p of list)
      out.push(
        `| \`${p.name}\` | ${cell(p.shape.type)} | ${p.required ? "yes" : "no"} | ${cell(p.description || p.shape.description)} | ${cell(p.shape.constraints.join("; "))} |`,
      );
    out.push("");
  }
  if (operation.requestBody) {
    out.push(`## Request body (${operation.requestBody.contentType}${operation.requestBody.required ? ", required" : ""})`, "");
    if (operation.requestBody.description) out.push(operation.requestBody.description, "");
    out.push(shapeMarkdown(operation.requestBody.shape), "");
    for (const example of operation.requestExamples) out.push(`### Example: ${example.summary}`, "", json(example.value), "");
  }
  if (operation.crossFieldRules.length) {
    out.push("## Rules the schema cannot state", "");
    for (const rule of operation.crossFieldRules) out.push(`- ${rule.description} (${rule.status} \`${rule.code}\`)`);
    out.push("");
  }
  out.push("## Responses", "");
  for (const response of operation.responses) {
    out.push(`### ${response.status}: ${response.description.trim()}`, "");
    if (response.headers.length)
      out.push("Headers:", "", ...response.headers.map((h) => `- \`${h.name}\`${h.required ? " (always sent)" : ""}: ${h.description.replace(/\s*\n\s*/g, " ")}`), "");
    if (response.shape) out.push(`Body (${response.contentType}):`, "", shapeMarkdown(response.shape), "");
    const example = response.examples[0];
    if (example) out.push(`Example (${example.summary}):`, "", json(example.value), "");
  }
  const curl = samples.find((s) => s.language === "curl" && s.server === production.url);
  if (curl) out.push("## Request sample", "", "```sh", curl.source.trimEnd(), "```", "");
  if (history && (history.changes.length || history.added)) {
    out.push("## Changes by release", "");
    for (const release of history.changes)
      out.push(
        `- ${release.version}${release.date ? ` (${release.date})` : ""}: ${release.changes.map((c) => `${c.impact === "major" ? "breaking: " : ""}${c.message}`).join("; ")}`,
      );
    if (history.added) out.push(`- ${history.added}: added`);
    out.push("");
  }
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

export const guideMarkdownFile = (guide: Section) => `guides/${guide.id.replace(/^description\//, "")}.md`;
export const operationMarkdownFile = (operation: Operation) => `operations/${operation.operationId}.md`;

/** A guide as Markdown: its title and text as written. */
export const guideMarkdown = (guide: Section) => `# ${guide.title}\n\n${guide.markdown.trim()}\n`;

/** llms.txt: the title, the summary as its quote, what to know first, and a link per guide and operation. */
export function llmsTxt(input: { title: string; summary: string; version: string; lead: string; servers: Server[]; guides: Section[]; operations: Operation[] }): string {
  const first = (text: string) =>
    text
      .trim()
      .split("\n")[0]!
      .replace(/^[#*\s]+/, "");
  return `${[
    `# ${input.title}`,
    "",
    `> ${input.summary}`,
    "",
    `${input.lead.trim()} This is version ${input.version} of the API.`,
    "",
    `Base URLs: ${input.servers.map((s) => `${s.url} (${s.description})`).join("; ")}.`,
    "",
    "## Guides",
    "",
    ...input.guides.map((g) => `- [${g.title}](${guideMarkdownFile(g)}): ${first(g.markdown)}`),
    "",
    "## Operations",
    "",
    ...input.operations.map((o) => `- [${o.summary}](${operationMarkdownFile(o)}): \`${o.method} ${o.path}\``),
    "",
    "## Optional",
    "",
    "- [OpenAPI document](openapi.json): the whole contract, OpenAPI 3.1",
    "- [Postman collection](postman/collection.json): one request per operation and example",
  ].join("\n")}\n`;
}
