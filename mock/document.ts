// The bundled document the mock serves, and the base path its server URL declares. Prism
// ignores the path of the server URL (TOOLING.md), so the mock reads it here and serves
// every operation under it itself.
import { readFileSync } from "node:fs";

/** Path of the bundled document, the one file server, mock, tests and consumers read. */
export const documentFile = new URL("../generated/openapi.json", import.meta.url);

interface BundledDocument {
  servers?: { url: string }[];
}

/** The path of the document's first server URL, e.g. `/v1` (no trailing slash). */
export function basePathOf(document: BundledDocument): string {
  const url = document.servers?.[0]?.url;
  if (!url) throw new Error("the bundled document declares no server URL");
  return new URL(url).pathname.replace(/\/+$/, "");
}

/** Reads the bundled document from disk (fresh on every call, so a regenerated file is seen). */
export function loadDocument(): BundledDocument & Record<string, unknown> {
  return JSON.parse(readFileSync(documentFile, "utf8"));
}
