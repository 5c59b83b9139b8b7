// The contract diff: every change between two bundled OpenAPI 3.1 documents, classified as
// breaking or not for clients written against the base. `npm run diff` (scripts/diff/main.ts)
// and the release gate (scripts/release/gate.ts) both call `diffDocuments`.
import { Collector, type Change } from "./collector.js";
import type { Node } from "./document.js";
import { compareOperations } from "./operations.js";
import { compareSecuritySchemes, compareServers } from "./security.js";

export type { Change } from "./collector.js";

export interface DiffResult {
  baseVersion: string;
  headVersion: string;
  changes: Change[];
  breaking: number;
  /** The head's major version is above the base's. */
  majorRaised: boolean;
  /** What the exit code says: breaking changes without a major version bump. */
  failed: boolean;
}

const major = (version: string): number => Number.parseInt(version.split(".")[0] ?? "", 10);

export function diffDocuments(base: Node, head: Node): DiffResult {
  const out = new Collector();
  const ctx = { base, head, out, seen: new Set<string>() };
  compareServers(ctx);
  compareSecuritySchemes(ctx);
  compareOperations(ctx);
  const changes = out.list().sort((a, b) => Number(b.breaking) - Number(a.breaking));
  const baseVersion = String(base.info?.version ?? "");
  const headVersion = String(head.info?.version ?? "");
  const breaking = changes.filter((c) => c.breaking).length;
  const majorRaised = major(headVersion) > major(baseVersion);
  return { baseVersion, headVersion, changes, breaking, majorRaised, failed: breaking > 0 && !majorRaised };
}
