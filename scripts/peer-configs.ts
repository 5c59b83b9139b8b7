// Writes the configurations of peer test tools from the bundled document, on every
// `npm run generate` (generated/peers/, committed, drift-checked and shipped in the contract
// package like the Postman collection):
// - portman-config.json, for Portman (@apideck/portman): the contract tests of every
//   operation (status, content type, JSON body, schema, documented headers), and the API-key
//   headers Postman's auth cannot send. Postman's `apikey` auth carries one header; an
//   operation whose security requirement names several header keys (POST /notifications:
//   `X-Api-Key` and `X-Api-Secret`) gets the others as request headers, `{{<scheme name>}}`;
// - schemathesis.toml, for Schemathesis 4: credentials per security scheme from the
//   environment, and the documented cross-field rules (`x-cross-field-rules`) as expected
//   answers to schema-valid data, so its fuzzing goes on past them instead of stopping at a
//   "rejected schema-compliant request".
// docs/document.md#peers gives the commands that run them; test/peers/ runs Portman with
// this configuration and newman against the reference server.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { operationEntries } from "../server/document/walk.js";

type Node = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc: Node = JSON.parse(readFileSync("generated/openapi.json", "utf8"));
const out = "generated/peers";
const schemes: Record<string, Node> = doc.components.securitySchemes;

/**
 * The environment variable each security scheme's credential comes from, as the docs name
 * them (API_KEY, API_SECRET). A scheme this does not know stops the generation, so a new one
 * cannot go unconfigured.
 */
const credentialOf = (name: string): string => {
  const scheme = schemes[name];
  if (scheme?.type === "http" && scheme.scheme === "bearer") return "API_KEY";
  if (scheme?.type === "apiKey" && scheme.in === "header" && /^X-Api-(Key|Secret)$/i.test(scheme.name)) return scheme.name.slice(2).replace("-", "_").toUpperCase();
  throw new Error(`peer-configs: no credential known for the security scheme ${name} (${JSON.stringify(scheme)})`);
};

// Portman: contract tests everywhere; the key headers Postman's one-header apikey auth leaves out.
const headerKeys = (requirement: Node): string[] => Object.keys(requirement ?? {}).filter((name) => schemes[name]?.type === "apiKey" && schemes[name].in === "header");
const overwrites = operationEntries(doc).flatMap(({ operation: op }) => {
  const [, ...rest] = headerKeys(op.security?.[0]);
  return rest.length === 0
    ? []
    : [{ openApiOperationId: op.operationId, overwriteRequestHeaders: rest.map((name) => ({ key: schemes[name].name, value: `{{${name}}}` })) }];
});
const everyOperation = "*::/*";
const portman = {
  version: 1.0,
  $schema: "https://raw.githubusercontent.com/apideck-libraries/portman/main/src/utils/portman-config-schema.json",
  tests: {
    contractTests: ["statusSuccess", "contentType", "jsonBody", "schemaValidation", "headersPresent"].map((test) => ({
      openApiOperation: everyOperation,
      [test]: { enabled: true },
    })),
  },
  overwrites,
};

// Schemathesis: its default statuses for accepted data, plus each documented cross-field status.
const accepted = ["2xx", 401, 403, 404, 409, "5xx"];
const toml = (value: string | number) => (typeof value === "number" ? String(value) : JSON.stringify(value));
const lines = [
  `# Schemathesis 4 configuration for ${doc.info.title} ${doc.info.version}.`,
  "# Generated from the OpenAPI document by `npm run generate` (scripts/peer-configs.ts); do not edit.",
  "# Run (docs/document.md#peers):",
  '#   BASE_URL=… API_KEY=… API_SECRET=… schemathesis --config-file schemathesis.toml run openapi.json --url "$BASE_URL"',
  "",
  "# Credentials of each security scheme, from the environment.",
  ...Object.entries(schemes).flatMap(([name, scheme]) => [
    `[auth.openapi.${name}]`,
    `${scheme.type === "http" ? "bearer" : "api_key"} = ${toml(`\${${credentialOf(name)}}`)}`,
  ]),
  "",
  "# Rules a schema cannot state (x-cross-field-rules): schema-valid data that breaks one is",
  "# answered with the rule's status, which is then an accepted answer, not a failure.",
  ...operationEntries(doc)
    .filter(({ operation: op }) => Array.isArray(op["x-cross-field-rules"]))
    .flatMap(({ operation: op }) => {
      const rules: Node[] = op["x-cross-field-rules"];
      const statuses = [...new Set(rules.map((rule) => rule.status as number))].sort();
      return [
        "",
        "[[operations]]",
        `include-operation-id = ${toml(op.operationId)}`,
        `# ${rules.map((rule) => `${rule.id} (${rule.status})`).join(", ")}`,
        `checks.positive_data_acceptance.expected-statuses = [${[accepted[0]!, ...statuses, ...accepted.slice(1)].map(toml).join(", ")}]`,
      ];
    }),
];

mkdirSync(out, { recursive: true });
writeFileSync(join(out, "portman-config.json"), `${JSON.stringify(portman, null, 2)}\n`);
writeFileSync(join(out, "schemathesis.toml"), `${lines.join("\n")}\n`);
