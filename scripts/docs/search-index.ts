// What search.js searches: every guide section and subsection (the changelog's releases and
// Limits' parts too) with its words, and every operation with its method, path, summary,
// description and the names of its parameters and fields. Each entry is a link on the page.
import { flatten } from "./fields.js";
import { plainText, type Section, slug } from "./markdown.js";
import type { Operation } from "./operation.js";

export interface SearchEntry {
  title: string;
  /** The id it links to (`description/limits`, `tag/webhooks/GET/webhooks`). */
  route: string;
  /** Where it is, shown under the title: `Guide`, `Limits`, `GET /webhooks`. */
  where: string;
  text: string;
}

/** A guide's `###` parts as entries of their own (their ids are those renderMarkdown gives them). */
function guideEntries(guide: Section): SearchEntry[] {
  const parts = guide.markdown.split(/^### /m);
  const intro = parts.shift() ?? "";
  return [
    { title: guide.title, route: guide.id, where: "Guide", text: plainText(intro) },
    ...parts.map((part) => {
      const [heading, ...rest] = part.split("\n");
      return { title: plainText(heading!), route: `description/${slug(plainText(heading!))}`, where: guide.title, text: plainText(rest.join("\n")) };
    }),
  ];
}

function operationEntry(operation: Operation): SearchEntry {
  const names = [
    ...operation.parameters.map((p) => p.name),
    ...flatten(operation.requestBody?.shape.fields).map((f) => f.path),
    ...(operation.requestBody?.shape.variants ?? []).flatMap((v) => flatten(v.fields).map((f) => f.path)),
    ...operation.responses.map((r) => r.status),
  ];
  return {
    title: operation.summary,
    route: operation.route,
    where: `${operation.method} ${operation.path}`,
    text: `${operation.method} ${operation.path} ${plainText(operation.description)} ${[...new Set(names)].join(" ")}`,
  };
}

export const searchIndex = (guides: Section[], operations: Operation[]): SearchEntry[] => [...guides.flatMap(guideEntries), ...operations.map(operationEntry)];
