// `npm run score:api`: Redocly CLI's integration-simplicity score of the bundled document
// (`redocly score`), printed as one line per figure. `-- --min 90` exits 1 below 90, so a
// change that makes the document harder to integrate with shows up in a check.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

export interface Score {
  agentReadiness: number;
  discoverability: number;
  subscores: Record<string, number>;
  operationScores: Record<string, { agentReadiness: number }>;
}

const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

/** The score of a bundled document, as `redocly score --format json` reports it. */
export function scoreOf(document = "generated/openapi.json"): Score {
  const output = execFileSync(process.execPath, [redocly, "score", document, "--format", "json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" },
  });
  return JSON.parse(output.slice(output.indexOf("{"))) as Score;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const minIndex = process.argv.indexOf("--min");
  const min = minIndex > 0 ? Number(process.argv[minIndex + 1]) : undefined;
  const score = scoreOf();
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  console.log(`redocly score (generated/openapi.json): ${score.agentReadiness}/100`);
  for (const [name, value] of Object.entries(score.subscores)) console.log(`  ${name.padEnd(22)} ${percent(value)}`);
  console.log(`  ${"discoverability".padEnd(22)} ${score.discoverability}%`);
  for (const [operation, { agentReadiness }] of Object.entries(score.operationScores)) console.log(`  ${operation.padEnd(22)} ${agentReadiness}`);
  if (min !== undefined && !(score.agentReadiness >= min)) {
    console.error(`below the minimum of ${min}`);
    process.exit(1);
  }
}
