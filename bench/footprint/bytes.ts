// How an install's size is counted, in one place: the footprint script writes the figures the
// docs quote and the package tests compare their own installs with them, so both must count
// the same way (file bytes, not disk blocks; links not followed).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Bytes of every file under `dir` (symbolic links not followed). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
