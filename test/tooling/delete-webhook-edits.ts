// The hand-written part of adding DELETE /webhooks/{id} (`deleteWebhook`: 204, or 404 for an
// unknown or another application's webhook), as docs/adding-an-operation.md lists it: each
// edit is an insertion at an anchor of today's file (one that must occur exactly once, so a
// moved anchor fails loudly instead of editing the wrong place) or a new file. The generated
// files are left to `npm run generate`, CHANGELOG.md to `npm run changelog`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

type Edit = { file: string; after: string; insert: string } | { file: string; create: string } | { file: string; from: string; rename: [string, string][] };

const problemResponse = (kind: string) => ({
  file: `openapi/components/responses/DeleteWebhook${kind}.yaml`,
  from: `openapi/components/responses/ReadWebhook${kind}.yaml`,
  rename: [["ReadWebhook", "DeleteWebhook"]] as [string, string][],
});
const problemExample = (kind: string) => ({
  file: `openapi/components/examples/DeleteWebhook${kind}Problem.yaml`,
  from: `openapi/components/examples/ReadWebhook${kind}Problem.yaml`,
  rename: [["ReadWebhook", "DeleteWebhook"]] as [string, string][],
});

const operation = `
delete:
  operationId: deleteWebhook
  summary: Delete a webhook
  description: |
    Deletes one webhook of the application and its delivery history; its id then answers 404.

    **Auth:** \`Authorization: Bearer <API key>\`.
    **Errors:** 400 for a malformed id; 401 without a valid bearer key; 404 for an unknown id
    or another application's webhook (also for one already deleted).
  tags: [Webhooks]
  security:
    - bearerAuth: []
  parameters:
    - $ref: ../components/parameters/WebhookId.yaml
  responses:
    '204':
      description: The webhook is deleted.
      headers:
        Access-Control-Allow-Origin:
          $ref: ../components/headers/Access-Control-Allow-Origin.yaml
        X-Request-Id:
          $ref: ../components/headers/X-Request-Id.yaml
        RateLimit:
          $ref: ../components/headers/RateLimit.yaml
        RateLimit-Policy:
          $ref: ../components/headers/RateLimit-Policy.yaml
    '400':
      $ref: ../components/responses/DeleteWebhookValidationFailed.yaml
    '401':
      $ref: ../components/responses/DeleteWebhookUnauthorized.yaml
    '404':
      $ref: ../components/responses/DeleteWebhookNotFound.yaml
    '429':
      $ref: ../components/responses/RateLimited.yaml
    '500':
      $ref: ../components/responses/InternalError.yaml
    '501':
      $ref: ../components/responses/NotImplemented.yaml
    '503':
      $ref: ../components/responses/ServiceUnavailable.yaml
  x-codeSamples:
    - lang: curl
      label: curl
      source:
        $ref: ../code_samples/deleteWebhook/curl.sh
    - lang: TypeScript
      label: TypeScript client
      source:
        $ref: ../code_samples/deleteWebhook/client.ts
`;

/** The rules of the operation, through the handlers over a fresh in-memory store. */
const operationTest = `// deleteWebhook: the webhook and its history go; the id then answers 404, as does another
// application's webhook, which stays.
import { describe, expect, it } from "vitest";
import { callerA, callerB, problemOf, setup } from "./harness.js";

const input = (id: string, caller = callerA) => ({ path: { id }, caller }) as never;

describe("deleteWebhook", () => {
  it("answers 204 without a body, and the webhook, its history and its place in the list are gone", async () => {
    const { handlers, store } = setup();
    const [first] = (await store.webhooks(callerA.applicationId, { limit: 100, page: 1 })).result;
    expect(await handlers.deleteWebhook(input(first!.id))).toEqual({ status: 204 });
    await problemOf(() => store.webhook(callerA.applicationId, first!.id), "not_found");
    await problemOf(() => store.webhookHistory(callerA.applicationId, first!.id, { limit: 10, page: 1 }), "not_found");
    const left = (await store.webhooks(callerA.applicationId, { limit: 100, page: 1 })).result.map((w) => w.id);
    expect(left).not.toContain(first!.id);
  });

  it("answers 404 for an id deleted already and for an unknown one", async () => {
    const { handlers, store } = setup();
    const [first] = (await store.webhooks(callerA.applicationId, { limit: 100, page: 1 })).result;
    await handlers.deleteWebhook(input(first!.id));
    await problemOf(() => handlers.deleteWebhook(input(first!.id)), "not_found");
    await problemOf(() => handlers.deleteWebhook(input("whk_000000000000")), "not_found");
  });

  it("answers 404 for another application's webhook and leaves it", async () => {
    const { handlers, store } = setup();
    // A copy: the in-memory store answers its own records, which a refusal that wrote would change too.
    const [theirs] = structuredClone((await store.webhooks(callerB.applicationId, { limit: 100, page: 1 })).result);
    await problemOf(() => handlers.deleteWebhook(input(theirs!.id, callerA)), "not_found");
    expect(await store.webhook(callerB.applicationId, theirs!.id)).toEqual(theirs);
  });
});
`;

export const edits: Edit[] = [
  // 1. The operation in the document, with its own 400/401/404 naming its path.
  { file: "openapi/paths/webhooks_{id}.yaml", after: "        $ref: ../code_samples/readWebhook/client.ts\n", insert: operation },
  ...["ValidationFailed", "Unauthorized", "NotFound"].flatMap((kind) => [problemResponse(kind), problemExample(kind)]),
  // 6. Code samples (the bundle embeds them).
  {
    file: "openapi/code_samples/deleteWebhook/curl.sh",
    create: `curl -sS -X DELETE "$BASE_URL/webhooks/whk_3a7f1c9e5b2d" \\\n  -H "Authorization: Bearer $API_KEY"\n`,
  },
  {
    file: "openapi/code_samples/deleteWebhook/client.ts",
    create: `import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { response, error } = await api.DELETE("/webhooks/{id}", {
  params: { path: { id: "whk_3a7f1c9e5b2d" } },
});
if (error) throw new Error(\`\${error.code}: \${error.detail}\`);
console.log(response.status); // 204
`,
  },
  // 3. The store: the port, the in-memory store (one synchronous step), PostgreSQL.
  {
    file: "server/domain/store.ts",
    after: "  webhook(applicationId: string, id: string): Promise<Webhook>;\n",
    insert:
      "  /** Deletes a webhook and its history; 404 for a webhook not of this application. */\n  deleteWebhook(applicationId: string, id: string): Promise<void>;\n",
  },
  {
    file: "server/store/memory.ts",
    after: "    webhooks: async (applicationId, paging) => pageOf(app(applicationId).webhookList, paging),\n",
    insert: `
    async deleteWebhook(applicationId, id) {
      const data = app(applicationId);
      if (!data.webhooks.delete(id)) throw notFound(\`Webhook \${id} was not found.\`);
      data.webhookList.splice(data.webhookList.findIndex((webhook) => webhook.id === id), 1);
      data.webhookHistory.delete(id);
    },
`,
  },
  {
    file: "server/store/postgres/sql.ts",
    after: "  webhook: `SELECT body FROM webhooks WHERE application_id = $1 AND id = $2`,\n",
    // The history goes with it: ON DELETE CASCADE (migrations/001_initial.sql).
    insert: "  deleteWebhook: `DELETE FROM webhooks WHERE application_id = $1 AND id = $2`,\n",
  },
  {
    file: "server/store/postgres/index.ts",
    after: "    webhooks: (applicationId, paging) => page(sql.webhookCount, sql.webhookPage, [applicationId], paging),\n",
    insert: `
    async deleteWebhook(applicationId, id) {
      if ((await pool.query(sql.deleteWebhook, [applicationId, id])).rowCount === 0) throw notFound(\`Webhook \${id} was not found.\`);
    },
`,
  },
  // 4. The handler and its registration.
  {
    file: "server/handlers/webhooks.ts",
    after: "    result: await store.webhook(caller.applicationId, path.id),\n  });\n",
    insert: `
/** deleteWebhook: DELETE /webhooks/{id} */
export const deleteWebhook =
  ({ store }: HandlerDeps): Handler<"deleteWebhook"> =>
  async ({ path, caller }) => {
    await store.deleteWebhook(caller.applicationId, path.id);
    return { status: 204 };
  };
`,
  },
  {
    file: "server/handlers/index.ts",
    after: 'import { findWebhookHistory, findWebhooks, readWebhook } from "./webhooks.js";\n',
    insert: 'import { deleteWebhook } from "./webhooks.js";\n',
  },
  { file: "server/handlers/index.ts", after: "    findWebhooks: findWebhooks(deps),\n", insert: "    deleteWebhook: deleteWebhook(deps),\n" },
  // 5. The conformance check: its valid call, the fixture of its {id}, its bad inputs.
  { file: "conformance/calls.ts", after: '  findWebhookHistory: "webhook",\n', insert: '  deleteWebhook: "webhook",\n' },
  {
    file: "conformance/calls.ts",
    after: '  findWebhooks: (api, _target, input = {}) => api.GET("/webhooks", { params: { query: paging(input) } }),\n',
    insert: '  deleteWebhook: (api, target, input = {}) => api.DELETE("/webhooks/{id}", { params: { path: withId("deleteWebhook", target, input) } }),\n',
  },
  { file: "conformance/contract-checks.ts", after: "  findWebhooks: [limitOver100, pageZero],\n", insert: "  deleteWebhook: [malformedId],\n" },
  // 7. Its rules, and its handler in the type tests' complete map.
  { file: "test/server/operations/delete-webhook.test.ts", create: operationTest },
  {
    file: "test/types/handlers.test-d.ts",
    after: '  findWebhooks: () => ({ type: "api.application.webhook.find", result: [webhook], meta }),\n',
    insert: "  deleteWebhook: () => ({ status: 204 }) as const,\n",
  },
];

/** Applies the edits to the project at `root`; an anchor that is not there exactly once throws. */
export function applyEdits(root: string): void {
  for (const edit of edits) {
    const target = join(root, edit.file);
    mkdirSync(dirname(target), { recursive: true });
    if ("create" in edit) {
      writeFileSync(target, edit.create);
    } else if ("from" in edit) {
      let text = readFileSync(join(root, edit.from), "utf8");
      for (const [a, b] of edit.rename) text = text.replaceAll(a, b);
      writeFileSync(target, text);
    } else {
      const text = readFileSync(target, "utf8");
      const at = text.indexOf(edit.after);
      if (at < 0 || text.indexOf(edit.after, at + 1) >= 0) throw new Error(`${edit.file}: the anchor ${JSON.stringify(edit.after)} is not there exactly once`);
      const end = at + edit.after.length;
      writeFileSync(target, text.slice(0, end) + edit.insert + text.slice(end));
    }
  }
}
