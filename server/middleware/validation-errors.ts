// Turns express-openapi-validator's request-validation errors into the problem's `errors[]`:
// one `{ in, name | pointer, message }` per offending value. A parameter's message is followed
// by what the document says the value is (its schema's description, else the parameter's),
// so `start_date=1767225600000` is answered "must be <= 9999999999 (Unix time in seconds …)"
// without a rule per parameter name.
import { maxProblemErrors, type ProblemErrorItem } from "../problems.js";
import { operationsOf, resolveRef, type ApiDocument } from "../document/load.js";
import type { ParameterObject, SchemaObject } from "../document/types.js";

/** One error as eov reports it: `path` is `/query/limit`, `/params/id`, `/headers/x`, `/body/…` or a bare pointer. */
export interface ValidatorErrorItem {
  path?: string;
  message: string;
  /** `<ajv keyword>.openapi.validation`, e.g. `anyOf.openapi.validation`. */
  errorCode?: string;
}

type Location = ProblemErrorItem["in"];
const locations: Record<string, Location> = { query: "query", params: "path", headers: "header", body: "body" };

/** The first sentence of a description, without Markdown emphasis or code marks. */
export function firstSentence(description: string): string {
  const plain = description.replace(/\*\*|__|`/g, "").trim();
  return plain.split(/(?<=\.)\s+(?=[A-Z])/)[0]!.replace(/\.$/, "");
}

/** What each operation's parameters are, by operationId and `in:name`. */
export function parameterHints(document: ApiDocument): Map<string, Map<string, string>> {
  const hints = new Map<string, Map<string, string>>();
  for (const { operationId, operation } of operationsOf(document)) {
    const byName = new Map<string, string>();
    for (const ref of operation.parameters ?? []) {
      const parameter = resolveRef<ParameterObject>(document, ref);
      const schema = parameter.schema ? resolveRef<SchemaObject>(document, parameter.schema) : undefined;
      const description = schema?.description ?? parameter.description;
      // The document's `in` values (path, query, header) are the problem's `in` values.
      if (description) byName.set(`${parameter.in}:${parameter.name.toLowerCase()}`, firstSentence(description));
    }
    hints.set(operationId, byName);
  }
  return hints;
}

const isAlternatives = (item: ValidatorErrorItem) => /^(anyOf|oneOf)\./.test(item.errorCode ?? "");

/** Where one eov error points, and its message in words a client can act on. */
function locate(item: ValidatorErrorItem, requestPath: string): ProblemErrorItem {
  const path = item.path ?? "";
  const message = readable(item);
  const match = /^\/(query|params|headers|cookies|body)(?:\/(.*))?$/.exec(path);
  if (match && match[1] !== "body" && match[1] !== "cookies") {
    return { in: locations[match[1]!]!, name: decodePointerToken((match[2] ?? "").split("/")[0]!), message };
  }
  if (match?.[1] === "body") return { in: "body", pointer: match[2] === undefined ? "" : `/${match[2]}`, message };
  // A body checked by eov's discriminator step is reported against the request path,
  // naming the discriminator property in the message.
  const discriminator = /^'([^']+)' must be equal to one of the allowed values/.exec(item.message);
  if (discriminator) return { in: "body", pointer: `/${discriminator[1]}`, message: message.replace(/^'[^']+' /, "") };
  // `anyOf`/`oneOf` over the whole body (notification targets) comes with an empty path:
  // it is about the body, not the URL.
  if (path === "" && isAlternatives(item)) return { in: "body", pointer: "", message };
  // An undecodable path (`%E0%A4%A`) is reported against the request path too.
  if (path === requestPath || path === "") return { in: "path", message };
  // Errors of a body validated on its own carry a bare JSON pointer (`/title`).
  return { in: "body", pointer: path, message };
}

function readable(item: ValidatorErrorItem): string {
  const message = item.message.replace(/\.$/, "");
  if (/required property 'body'/.test(message)) return "a JSON body is required";
  if (message === "boolean schema is false") return "is not allowed here (with the other values of this request)";
  if (message === "malformed uri'") return "is not valid percent-encoding"; // eov's message has the stray quote
  return message;
}

/**
 * Maps eov's errors to problem error items, one per offending value: the errors of one
 * value (the branches of an `anyOf`, several keywords) become one item. `hints` are the
 * operation's parameter hints.
 */
export function toErrorItems(items: ValidatorErrorItem[], requestPath: string, hints?: Map<string, string>): ProblemErrorItem[] {
  const groups = new Map<string, { located: ProblemErrorItem; messages: string[]; alternatives: boolean }>();
  for (const item of items) {
    const located = locate(item, requestPath);
    const key = `${located.in}\u0000${located.name ?? located.pointer ?? ""}`;
    const group = groups.get(key) ?? { located, messages: [], alternatives: false };
    groups.set(key, group);
    if (isAlternatives(item)) group.alternatives = true;
    else if (!group.messages.includes(located.message)) group.messages.push(located.message);
  }
  return [...groups.values()].map(({ located, messages, alternatives }) => {
    let message = messages.join(alternatives ? " or " : "; ") || located.message;
    const hint = located.name === undefined ? undefined : hints?.get(`${located.in}:${located.name.toLowerCase()}`);
    if (hint && !message.startsWith("Unknown query parameter")) message = `${message} (${hint})`;
    return { ...located, message };
  });
}

function decodePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** One line naming the offending values (the first maxProblemErrors, then how many more), for the problem's `detail`. */
export function describeErrors(items: ProblemErrorItem[]): string {
  const parts = items.slice(0, maxProblemErrors).map((item) => {
    const what = item.name ?? (item.in === "body" ? item.pointer || "(the whole body)" : undefined);
    return `${item.in}${what === undefined ? "" : ` ${what}`}: ${item.message}`;
  });
  const more = items.length - parts.length;
  if (more > 0) parts.push(`and ${more} more`);
  return `${items.length === 1 ? "One value" : `${items.length} values`} of the request ${items.length === 1 ? "is" : "are"} invalid. ${parts.join("; ")}.`;
}
