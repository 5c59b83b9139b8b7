// `npm run lint:api` passes on the document, and the project's own rules bite: copies of
// `openapi/` with one defect each make Redocly fail, naming the rule that caught it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, root, run } from "./run.js";

const scratch = mkdtempSync(join(tmpdir(), "lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of `openapi/` (config included) with each defect's `from` text replaced by `to`. */
function brokenCopy(changes: { file: string; from: string; to: string }[]): string {
  const dir = join(scratch, "openapi");
  cpSync(join(root, "openapi"), dir, { recursive: true });
  for (const { file, from, to } of changes) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8");
    if (!text.includes(from)) throw new Error(`${file} no longer contains the text this test breaks`);
    writeFileSync(path, text.replace(from, to));
  }
  return join(dir, "redocly.yaml");
}

// Defects in different operations, each with the rule of openapi/redocly.yaml that must
// catch it. One copy holds them all (one Redocly run); the summary counts problems per rule.
const defects = [
  {
    rule: "rule/operation-documents-errors",
    what: "an operation without its 400",
    file: "paths/webhooks.yaml",
    from: "    '400':\n      $ref: ../components/responses/FindWebhooksValidationFailed.yaml\n",
    to: "",
  },
  {
    rule: "rule/media-type-has-example",
    what: "a media type without an example",
    file: "paths/widgets_{id}.yaml",
    from: "          examples:\n            WidgetRead:\n              $ref: ../components/examples/WidgetRead.yaml\n",
    to: "",
  },
  {
    rule: "rule/operation-id-camel-case",
    what: "an operationId that is not camelCase",
    file: "paths/webhooks_{id}.yaml",
    from: "operationId: readWebhook",
    to: "operationId: read_webhook",
  },
  {
    rule: "rule/operation-has-code-samples",
    what: "an operation without code samples",
    file: "paths/reports_encryption.yaml",
    from: "  x-codeSamples:",
    to: "  x-notCodeSamples:",
  },
  {
    rule: "rule/operation-has-security",
    what: "an operation that inherits its credentials",
    file: "paths/users_{id}_activity.yaml",
    from: "  security:\n    - bearerAuth: []\n",
    to: "",
  },
  {
    rule: "rule/server-url-https",
    what: "a plain-HTTP server URL",
    file: "openapi.yaml",
    from: "  - url: https://",
    to: "  - url: http://",
  },
];

// Started once, awaited by each defect's test.
let broken: ReturnType<typeof run>;

describe("lint", () => {
  beforeAll(() => {
    broken = run(bin("redocly"), ["lint", "--config", brokenCopy(defects), "--format=summary"]);
  });

  it("npm run lint:api exits 0 on the document", async () => {
    const { code, output } = await run("npm", ["run", "-s", "lint:api"]);
    expect(output).toMatch(/valid/i);
    expect(code, output).toBe(0);
  }, 60_000);

  it.each(defects)(
    "fails on $what ($rule)",
    async ({ rule }) => {
      const { code, output } = await broken;
      expect(code).not.toBe(0);
      expect(output).toMatch(new RegExp(`${rule.replace(/\//g, "\\/")}: [1-9]`));
    },
    60_000,
  );
});
