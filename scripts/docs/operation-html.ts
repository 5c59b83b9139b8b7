// One operation of the reference as HTML, readable before any script runs: its endpoint, the
// credentials it takes, parameters, request body, the rules a schema cannot state, every
// response status (each a <details> with its headers, fields and example), the releases that
// changed it, and beside them the request samples (one per language and example, the first
// shown) and the success example. The console is not here: docs.js loads it when the reader
// presses "Try it".
import type { OperationHistory } from "./history.js";
import { codeBlock, escapeHtml, inlineCode, renderInline, renderMarkdown } from "./markdown.js";
import { headerRoute, modelRoute, type Operation, type Parameter, type Response, type Shared } from "./operation.js";
import { languages, type Sample } from "./samples.js";
import { deprecatedBadge, fieldsHtml, shapeHtml } from "./schema-html.js";

const json = (value: unknown) => JSON.stringify(value, null, 2);
const statusClass = (status: string) => `status status-${status[0]}xx`;

function parametersHtml(parameters: Parameter[], where: string, title: string): string {
  const list = parameters.filter((p) => p.in === where);
  if (!list.length) return "";
  return `<h3>${title}</h3>${fieldsHtml(
    list.map((p) => ({
      name: p.name,
      type: p.shape.type,
      required: p.required,
      description: p.description || p.shape.description,
      constraints: [...p.shape.constraints, ...(p.example !== undefined ? [`example ${inlineExample(p.example)}`] : [])],
      ...(p.deprecated ? { deprecated: p.deprecated } : {}),
    })),
  )}`;
}

const inlineExample = (value: unknown) => `\`${String(value).replace(/`/g, "")}\``;

function securityHtml(operation: Operation): string {
  const headers = operation.security.map(
    (s) =>
      `${inlineCode(s.header === "Authorization" ? "Authorization: Bearer <API key>" : `${s.header}: <${s.credential === "apiSecret" ? "API secret" : "API key"}>`)}`,
  );
  return `<h3>Authentication</h3><p class="auth">${headers.join(" and ")}${operation.security.length > 1 ? ", both" : ""}. <a href="#description/authentication">How keys work</a></p>`;
}

/** A response: its headers and body, each described here or, when many responses share it, linked to where the page describes it once. */
function responseHtml(operation: Operation, response: Response, shared: Shared): string {
  const headers = response.headers.length
    ? `<p class="sub">Headers</p><ul class="fields">${response.headers
        .map((h) => {
          const once = h.component && shared.headers.has(h.component);
          const name = once ? `<a href="#${escapeHtml(headerRoute(h.component!))}">${inlineCode(h.name)}</a>` : inlineCode(h.name);
          return `<li class="field"><div class="field-head">${name} <span class="type">${escapeHtml(h.type)}</span>${h.required ? ' <span class="required">always sent</span>' : ""}</div>${h.description && !once ? `<div class="field-text">${renderMarkdown(h.description)}</div>` : ""}</li>`;
        })
        .join("")}</ul>`
    : "";
  const once = response.schemaName && shared.schemas.has(response.schemaName);
  const body = !response.shape
    ? ""
    : once
      ? `<p class="sub">Body <span class="type">${escapeHtml(response.contentType ?? "")}</span>: <a href="#${escapeHtml(modelRoute(response.schemaName!))}">${escapeHtml(response.schemaName!)}</a></p>`
      : `<p class="sub">Body <span class="type">${escapeHtml(response.contentType ?? "")}</span></p>${shapeHtml(response.shape)}`;
  const examples = response.examples
    .map((e) => `<p class="sub">Example: ${escapeHtml(e.summary)}</p>${e.description ? renderMarkdown(e.description) : ""}${codeBlock(json(e.value), "json")}`)
    .join("");
  const firstLine = response.description.split("\n")[0]!;
  return `<li><details id="${escapeHtml(`${operation.route}/response/${response.status}`)}"><summary><span class="${statusClass(response.status)}">${escapeHtml(response.status)}</span> <span class="status-text">${renderInline(firstLine)}</span></summary><div class="response-body">${response.description.includes("\n") ? renderMarkdown(response.description) : ""}${headers}${body}${examples}</div></details></li>`;
}

function historyHtml(history: OperationHistory | undefined): string {
  if (!history) return "";
  const changed = history.changes
    .map(
      (release) =>
        `<li><span class="release">${escapeHtml(release.version)}</span>${release.date ? ` <span class="date">${escapeHtml(release.date)}</span>` : ""}<ul>${release.changes
          .map((c) => `<li>${c.impact === "major" ? '<span class="badge badge-breaking">Breaking</span> ' : ""}${renderInline(c.message)}</li>`)
          .join("")}</ul></li>`,
    )
    .join("");
  const added = history.added ? `<li><span class="release">${escapeHtml(history.added)}</span> added</li>` : "";
  return `<h3>Changes by release</h3><ul class="history">${changed}${added}</ul>`;
}

/** What many responses share, described once: each body schema and each header. */
export function sharedHtml(shared: Shared): string {
  const models = [...shared.schemas]
    .map(
      ([name, shape]) =>
        `<section class="model" id="${escapeHtml(modelRoute(name))}"><h2>${escapeHtml(name)}</h2>${shape.description ? renderMarkdown(shape.description) : ""}${shapeHtml(shape)}</section>`,
    )
    .join("");
  const headers = [...shared.headers]
    .map(
      ([component, h]) =>
        `<li class="field" id="${escapeHtml(headerRoute(component))}"><div class="field-head">${inlineCode(h.name)} <span class="type">${escapeHtml(h.type)}</span></div>${h.description ? `<div class="field-text">${renderMarkdown(h.description)}</div>` : ""}</li>`,
    )
    .join("");
  return `${models}${headers ? `<section class="model" id="headers"><h2>Response headers</h2><ul class="fields">${headers}</ul></section>` : ""}`;
}

/** The request samples of the default server: every language × example, the first of each shown. */
function samplesHtml(operation: Operation, samples: Sample[]): string {
  const examples = operation.requestExamples;
  const id = operation.operationId;
  const picker = examples.length
    ? `<label class="picker">Example <select data-example-picker>${examples.map((e) => `<option value="${escapeHtml(e.key)}">${escapeHtml(e.summary)}</option>`).join("")}</select></label>`
    : "";
  const languagePicker = `<label class="picker">Language <select data-language-picker>${languages.map((l) => `<option value="${l.id}">${escapeHtml(l.label)}</option>`).join("")}</select></label>`;
  const blocks = samples
    .map(
      (s, i) =>
        `<pre class="code sample" tabindex="0" data-language="${s.language}" data-example="${escapeHtml(s.example)}" aria-label="${escapeHtml(`${languages.find((l) => l.id === s.language)!.label} sample`)}"${i === 0 ? "" : " hidden"}><code>${escapeHtml(s.source.replace(/\n$/, ""))}</code></pre>`,
    )
    .join("");
  return `<div class="sample-panel" data-operation="${escapeHtml(id)}"><h3 class="panel-title">Request</h3><div class="pickers">${languagePicker}${picker}</div>${blocks}<div class="console-bar"><button type="button" class="try-it" aria-controls="console-${escapeHtml(id)}" aria-expanded="false" hidden>Try it</button></div><div class="console-slot" id="console-${escapeHtml(id)}"></div></div>`;
}

function responseSampleHtml(operation: Operation): string {
  const success = operation.responses.find((r) => /^2/.test(r.status) && r.examples.length);
  if (!success) return "";
  return `<div class="response-sample"><h3 class="panel-title">Response <span class="${statusClass(success.status)}">${success.status}</span></h3>${codeBlock(json(success.examples[0]!.value), "json")}</div>`;
}

export function operationHtml(operation: Operation, samples: Sample[], history: OperationHistory | undefined, shared: Shared): string {
  const rules = operation.crossFieldRules.length
    ? `<h3>Rules the schema cannot state</h3><ul class="rules">${operation.crossFieldRules.map((r) => `<li>${renderInline(r.description)} <span class="${statusClass(String(r.status))}">${r.status}</span> ${inlineCode(r.code)}</li>`).join("")}</ul>`
    : "";
  const body = operation.requestBody
    ? `<h3>Request body <span class="type">${escapeHtml(operation.requestBody.contentType)}</span>${operation.requestBody.required ? ' <span class="required">required</span>' : ""}</h3>${operation.requestBody.description ? renderMarkdown(operation.requestBody.description) : ""}${shapeHtml(operation.requestBody.shape)}`
    : "";
  return `<section class="operation" id="${escapeHtml(operation.route)}" aria-labelledby="${escapeHtml(`${operation.route}/title`)}">
<div class="op-text">
<h2 id="${escapeHtml(`${operation.route}/title`)}">${escapeHtml(operation.summary)}</h2>
<p class="endpoint"><span class="method method-${operation.method.toLowerCase()}">${operation.method}</span> ${inlineCode(operation.path)}${deprecatedBadge(operation.deprecated)}</p>
${renderMarkdown(operation.description)}
${securityHtml(operation)}
${parametersHtml(operation.parameters, "path", "Path parameters")}${parametersHtml(operation.parameters, "query", "Query parameters")}${parametersHtml(operation.parameters, "header", "Header parameters")}
${body}${rules}
<h3>Responses</h3><ul class="responses">${operation.responses.map((r) => responseHtml(operation, r, shared)).join("")}</ul>
${historyHtml(history)}
</div>
<div class="op-samples">${samplesHtml(operation, samples)}${responseSampleHtml(operation)}</div>
</section>`;
}
