// Self time of a V8 CPU profile (.cpuprofile: the inspector's, or `node --cpu-prof`'s) by
// package and by function, as shares of the samples: bench/profile.ts and
// bench/serverless-cold.ts read their profiles through it.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}

export interface SelfTime {
  /** Samples in the profile. */
  total: number;
  /** Samples per package (`node_modules/<name>`), "node core", a file of the repository, or a V8 category such as "(garbage collector)". */
  byPackage: Map<string, number>;
  /** Samples per function, `name file:line`. */
  byFunction: Map<string, number>;
}

export function selfTime(file: string, root = process.cwd()): SelfTime {
  const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: ProfileNode[]; samples: number[] };
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    if (!node.hitCount) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^file:\/\//, "").replace(`${root}/`, "");
    const fn = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.hitCount);
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.startsWith("node:") ? "node core" : where === "" ? `(${functionName})` : where.split("/").slice(0, 2).join("/"));
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.hitCount);
  }
  return { total: profile.samples.length, byPackage, byFunction };
}

/** The `n` largest entries of `counts` as [name, share in % of `total`]. */
export function top(counts: Map<string, number>, total: number, n: number): [string, number][] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, count]) => [name, (count / total) * 100]);
}
