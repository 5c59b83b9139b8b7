// The document as Scalar's browser store makes it on load, made once at build time. On a page
// load Scalar's workspace store bundles the document (resolving references, normalising auth
// schemes and path parameters), coerces it to its schema and builds the sidebar's navigation
// from it: about a second of a 4×-slowed phone's main thread before anything is rendered. The
// store skips all three for a document that already carries its navigation
// (`x-scalar-navigation`), which is how Scalar's own server-side store hands documents over. So
// the build runs the very store the page runs (the same @scalar/workspace-store version as
// scalar.js bundles, checked below) and inlines what it produced.
import { readFileSync } from "node:fs";
import { getRaw } from "@scalar/json-magic/magic-proxy";
import { createWorkspaceStore } from "@scalar/workspace-store/client";

/** An installed package's package.json (read from node_modules: not every package exports it). */
const manifest = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), "utf8")) as { version: string; dependencies: Record<string, string> };

/** Throws unless the store used here is the one scalar.js bundles: another version may shape documents differently. */
function checkSameStore(): void {
  for (const [name, user] of [
    ["@scalar/workspace-store", "@scalar/api-reference"],
    ["@scalar/json-magic", "@scalar/workspace-store"],
  ] as const) {
    const wanted = manifest(user).dependencies[name];
    if (wanted !== manifest(name).version) throw new Error(`${name} ${manifest(name).version} is installed, ${user} uses ${wanted}: pin that version in package.json`);
  }
}

/** The document processed by Scalar's store under the page's document name (its slug), ready to inline. */
export async function preprocessed(document: object, name: string): Promise<Record<string, unknown>> {
  checkSameStore();
  const store = createWorkspaceStore();
  await store.addDocument({ name, document: structuredClone(document) as never });
  const processed = getRaw(store.workspace.documents[name]) as Record<string, unknown> | undefined;
  if (!processed?.["x-scalar-navigation"]) throw new Error("Scalar's store gave the document no navigation");
  return processed;
}
