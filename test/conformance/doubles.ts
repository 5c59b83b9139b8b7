// One table of broken doubles, one row per way of breaking the contract, each naming the
// conformance checks it must make fail and what their report says. doubles.test.ts runs
// every row's checks against its double (each must fail, saying why) and fails when a check
// of the run (the workflow steps and `checks` of conformance/suite.ts) has no row: a check
// or step added without a double that makes it fail cannot land. docs/testing.md's table of checks and their doubles is
// `doublesTable()` below, kept equal by the same test.
// The first double is the stateless broken target (broken-target.ts); the others are the
// reference server over the demo seed with one or a few handlers changed, as a backend team
// breaks them, so every other answer stays right and each failure is the breakage.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type { Check } from "../../conformance/check.js";
import { exampleFixtures } from "../../conformance/calls.js";
import { contractChecks } from "../../conformance/contract-checks.js";
import { checks } from "../../conformance/suite.js";
import type { Target } from "../../conformance/target.js";
import { type StepCheck, workflowSteps } from "../../conformance/workflows.js";
import type { OperationId } from "../../generated/operations.js";
import type { Handlers } from "../../server/contract-layer/contract.js";
import { createHandlers } from "../../server/handlers/index.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import { appA, appB, recordsOfA } from "../support/demo.js";
import { successExample } from "../support/document.js";
import { startServer } from "../support/server.js";
import { routeOf, startBrokenTarget } from "./broken-target.js";
import type { StartedTarget } from "./vitest-suite.js";

export interface Double {
  /** What the double gets wrong. */
  breaks: string;
  /** The checks it must make fail. */
  fails: (check: Check) => boolean;
  /** What the report says of each of them. */
  says: RegExp;
  start: () => Promise<StartedTarget>;
}

const named = (pattern: RegExp) => (check: Check) => pattern.test(check.name);

/** Every check of a run: the workflow steps (run by redocly respect), then the TypeScript checks. */
export const allChecks: Check[] = [...workflowSteps(), ...checks];
export const isStep = (check: Check): check is StepCheck => "stepId" in check;

// Steps that run only after an earlier step of their workflow passed (they read its outputs,
// or follow one that does): a double fails them by answering the steps before them right.
const afterList = /^readWebhook: workflow (webhooks-list-read-history, step read|stateful-reads, step read-listed)$/;
const afterRead = /: workflow (webhooks-list-read-history, step history|stateful-reads, step page-two)$/;

/** A target answering a 500 problem to every request but those of `spared`, which get their documented example. */
async function failingTarget(spared: OperationId[]): Promise<StartedTarget> {
  const server = createServer((request, response) => {
    request.resume();
    const operationId = routeOf(request.method, request.url);
    if (operationId && spared.includes(operationId)) {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(successExample(operationId)));
      return;
    }
    const problem = { type: "about:blank", title: "Internal Server Error", status: 500, detail: "broken", instance: request.url, code: "internal" };
    response.writeHead(500, { "content-type": "application/problem+json" }).end(JSON.stringify(problem));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // Stateful, with every fixture, so that no step is skipped.
  const fixtures = { ...exampleFixtures(), otherApplication: { apiKey: "ak_other", apiSecret: "as_other" } };
  const target: Target = { name: "failing double", baseUrl, apiKey: "ak_any", apiSecret: "as_any", stateful: true, fixtures };
  return { target, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
const caller = { applicationId: appA.applicationId, organizationId: appA.organizationId };
const lists = ["findUserActivity", "findEncryptionReports", "findWebhookHistory", "findWebhooks"] as const;

/** The reference server over the demo seed, as application A with every fixture, some handlers changed. */
async function serviceWith(change: (real: Handlers) => Partial<Handlers>): Promise<StartedTarget> {
  const store = createStore(loadSeed());
  const real = createHandlers({ store, clock: () => new Date() });
  const server = await startServer({ store, rateLimit: false, failedAuthLimit: false, handlers: change(real) });
  const fixtures = { ...exampleFixtures(), smsProvider: recordsOfA.defaultSmsProvider!, otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret } };
  const target: Target = { name: "double", baseUrl: server.url, apiKey: appA.apiKey, apiSecret: appA.apiSecret, stateful: true, fixtures };
  return { target, close: () => server.close() };
}

/** A handler of a list operation with its answer changed. */
const listAnswer =
  <K extends (typeof lists)[number]>(real: Handlers, operationId: K, change: (answer: { result: unknown[] }) => { result: unknown[] }) =>
  async (input: Parameters<Handlers[K]>[0]) =>
    change((await real[operationId](input as never)) as never) as never;

/** Every row; a check of the suite with no row here fails doubles.test.ts. */
/** The secret values of a submitted e-mail `auth` (all but the SES region), as a double that leaks them writes them. */
const submittedSecrets = (auth: unknown) =>
  Object.entries(auth as Record<string, string>)
    .filter(([key]) => key !== "region")
    .map(([, value]) => value)
    .join(" ");

export const doubles: Double[] = [
  {
    breaks: "answers a 500 problem to every request",
    fails: (check) => isStep(check) && !afterList.test(check.name) && !afterRead.test(check.name),
    says: /^(GET|PUT|POST) http:\/\/127\.0\.0\.1:\d+\/v1\/\S+ → 500: /,
    start: () => failingTarget([]),
  },
  {
    breaks: "answers a 500 problem to every request but the webhook list",
    fails: (check) => isStep(check) && afterList.test(check.name),
    says: /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/webhooks\/whk_\w+ → 500: /,
    start: () => failingTarget(["findWebhooks"]),
  },
  {
    breaks: "answers a 500 problem to every request but the webhook list and read",
    fails: (check) => isStep(check) && afterRead.test(check.name),
    says: /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/(webhooks\/whk_\w+\/history|reports\/encryption)\S* → 500: /,
    start: () => failingTarget(["findWebhooks", "readWebhook"]),
  },
  {
    breaks: "serves every record of application A to any application",
    fails: named(/: workflow tenant-isolation, step (webhook|webhook-history|widget|user-activity|sms-provider)$/),
    says: /→ 200: success criteria check/,
    start: () =>
      serviceWith((real) => ({
        readWidget: (input) => real.readWidget({ ...input, caller }),
        readWebhook: (input) => real.readWebhook({ ...input, caller }),
        findWebhookHistory: (input) => real.findWebhookHistory({ ...input, caller }),
        findUserActivity: (input) => real.findUserActivity({ ...input, caller }),
        updateSmsProvider: (input) => real.updateSmsProvider({ ...input, caller }),
      })),
  },
  {
    breaks: "answers every request with its documented example (asks for no credentials, refuses nothing, knows no id)",
    fails: (check) => contractChecks.includes(check) && /: (401|400|404|415) problem /.test(check.name),
    says: /^status: expected (401|400|404|415), got 200 \((GET|PUT|POST) http:\/\/127\.0\.0\.1:\d+\/v1\//,
    start: async () => {
      const double = await startBrokenTarget();
      const target: Target = { name: "broken double", baseUrl: double.url, apiKey: "ak_any", apiSecret: "as_any", stateful: false, fixtures: exampleFixtures() };
      return { target, close: double.close };
    },
  },
  {
    breaks: "echoes the submitted e-mail auth secrets (in `from_name`, a field the schema allows)",
    fails: named(/^saveEmailTransport: the response carries none of the submitted auth values$/),
    says: /^the response contains the submitted accessKeyId, secretAccessKey$/,
    start: () =>
      serviceWith((real) => ({
        saveEmailTransport: async (input) => {
          // The real handler answers the 200 body itself (not a typed result).
          const answer = (await real.saveEmailTransport(input)) as { result: object };
          return { ...answer, result: { ...answer.result, from_name: submittedSecrets(input.body.auth) } } as never;
        },
      })),
  },
  {
    breaks: "echoes the submitted e-mail auth secrets in a response header (`X-Debug-Auth`)",
    fails: named(/^saveEmailTransport: the response carries none of the submitted auth values$/),
    says: /^the response contains the submitted accessKeyId, secretAccessKey$/,
    start: () =>
      serviceWith((real) => ({
        saveEmailTransport: async (input) => {
          const answer = await real.saveEmailTransport(input);
          return { status: 200, body: answer, headers: { "X-Debug-Auth": submittedSecrets(input.body.auth) } } as never;
        },
      })),
  },
  {
    breaks: "ignores `sort` on PUT /sms/providers/{id}",
    fails: named(/^updateSmsProvider: sort UP moves/),
    says: /^(UP|DOWN) (from|at position) \d.*: expected sort \d+, got \d+$/,
    start: () =>
      serviceWith((real) => ({
        updateSmsProvider: ({ body, ...input }) => {
          const { sort: _ignored, ...rest } = body ?? {};
          return real.updateSmsProvider({ ...input, body: rest });
        },
      })),
  },
  {
    breaks: "lets the default SMS provider be un-defaulted (200 instead of 409)",
    fails: named(/^updateSmsProvider: 409 problem/),
    says: /^status: expected 409, got 200 \(PUT /,
    start: () =>
      serviceWith((real) => ({
        updateSmsProvider: ({ body, ...input }) => {
          const { is_default, ...rest } = body ?? {};
          return real.updateSmsProvider({ ...input, body: is_default === false ? rest : (body ?? {}) });
        },
      })),
  },
  {
    breaks: "lists every application's webhooks to any application",
    fails: named(/^findWebhooks: another application's list holds none/),
    says: /^the other application sees whk_\w+/,
    start: () => serviceWith((real) => ({ findWebhooks: (input) => real.findWebhooks({ ...input, caller }) })),
  },
  {
    breaks: "accepts a receiver that does not exist (sends to everyone instead)",
    fails: named(/^createNotification: 400 problem naming a receiver/),
    says: /^status: expected 400, got 200 \(POST /,
    start: () =>
      serviceWith((real) => ({
        createNotification: ({ body, ...input }) => {
          const { receivers: _unknown, ...rest } = body as Record<string, unknown>;
          return real.createNotification({ ...input, body: { ...rest, broadcast: true } as never });
        },
      })),
  },
  {
    breaks: "accepts `send_at` in the past (sends now)",
    fails: named(/^createNotification: 400 problem for send_at an hour in the past$/),
    says: /^status: expected 400, got 200 \(POST /,
    start: () =>
      serviceWith((real) => ({
        createNotification: ({ body, ...input }) => {
          const { send_at: _past, ...rest } = body as Record<string, unknown>;
          return real.createNotification({ ...input, body: rest as never });
        },
      })),
  },
  {
    breaks: "accepts `start_date` after `end_date` (swaps them)",
    fails: named(/^findEncryptionReports: 400 problem for start_date after end_date$/),
    says: /^status: expected 400, got 200 \(GET /,
    start: () =>
      serviceWith((real) => ({
        findEncryptionReports: ({ query, ...input }) => {
          const { start_date, end_date } = query;
          const crossed = start_date !== undefined && end_date !== undefined && start_date > end_date;
          return real.findEncryptionReports({ ...input, query: crossed ? { ...query, start_date: end_date, end_date: start_date } : query });
        },
      })),
  },
  {
    breaks: "answers the first page for a page past the end, on every list",
    fails: named(/: a page past the end is an empty result/),
    says: /^result: expected \[\], got \d+ records$/,
    start: () =>
      serviceWith((real) =>
        Object.fromEntries(
          lists.map((operationId) => [operationId, (input: { query: object }) => real[operationId]({ ...input, query: { ...input.query, page: 1 } } as never)]),
        ),
      ),
  },
  {
    breaks: "lists oldest first, on every list",
    fails: named(/: newest first \(created_at never increases/),
    says: /^record \d+ \(.+\) is newer than record \d+/,
    start: () =>
      serviceWith((real) =>
        Object.fromEntries(lists.map((operationId) => [operationId, listAnswer(real, operationId, (answer) => ({ ...answer, result: [...answer.result].reverse() }))])),
      ),
  },
  {
    breaks: "ignores every filter of GET /reports/encryption",
    fails: named(/^findEncryptionReports: the \w+ filter (narrows|splits)/),
    says: /^the \w+ filter is ignored: /,
    start: () =>
      serviceWith((real) => ({ findEncryptionReports: ({ query: { limit, page }, ...input }) => real.findEncryptionReports({ ...input, query: { limit, page } }) })),
  },
  {
    // Ignoring a filter is not enough here: every demo report of A holds the same status, so
    // the whole list is exactly the records matching it.
    breaks: "answers a filter of GET /reports/encryption with the records that do not match it",
    fails: named(/^findEncryptionReports: the \w+ filter keeps exactly/),
    says: /^\w+=\S+ \(held by a record\) finds nothing$|^\w+=\S+ also returns \d+ records whose /,
    start: () =>
      serviceWith((real) => ({
        findEncryptionReports: async ({ query, ...input }) => {
          const { limit: _limit, page: _page, ...filters } = query;
          if (Object.keys(filters).length === 0) return real.findEncryptionReports({ ...input, query });
          type Page = { result: { id: string }[]; meta: Record<string, number> };
          const matching = (await real.findEncryptionReports({ ...input, query: { ...query, limit: 100, page: 1 } })) as Page;
          const all = (await real.findEncryptionReports({ ...input, query: { limit: 100, page: 1 } })) as Page;
          const result = all.result.filter((record) => !matching.result.some((match) => match.id === record.id));
          const meta = { ...all.meta, total_count: result.length, current_count: result.length, page_count: result.length > 0 ? 1 : 0 };
          return { ...all, result, meta } as never;
        },
      })),
  },
];

/** The kind of a check, for the docs table (one line per kind rather than per operation). */
const kinds: [RegExp, string][] = [
  [/: 401 problem without credentials$/, "401 problem without credentials"],
  [/: 401 problem with .* \(the other scheme\)$/, "401 problem with the other scheme's credentials"],
  [/: 404 problem for an unknown id$/, "404 problem for an unknown id"],
  [/: 415 problem /, "415 problem for a body that is not JSON"],
  [/: the \w+ filter (narrows|splits)/, "a filter narrows the list"],
  [/: the \w+ filter keeps exactly/, "a filter keeps exactly the records holding its value"],
  [/: a page past the end/, "a page past the end is empty, with the real totals"],
  [/: newest first/, "a list is newest first"],
];

function kindOf(check: Check): string {
  if (isStep(check)) return `workflow \`${check.workflow}\`, its steps`;
  const kind = kinds.find(([pattern]) => pattern.test(check.name))?.[1];
  if (kind) return kind;
  if (contractChecks.includes(check) && /: 400 problem for /.test(check.name)) return "400 problem for a value outside the schema";
  return check.name.replace(/^\w+: /, "");
}

/** The Markdown table of docs/testing.md: each kind of check, how many there are, the double that makes them fail. */
export function doublesTable(): string {
  const rows = new Map<string, { count: number; doubles: Set<string> }>();
  for (const check of allChecks) {
    const row = rows.get(kindOf(check)) ?? { count: 0, doubles: new Set<string>() };
    row.count++;
    for (const double of doubles.filter((d) => d.fails(check))) row.doubles.add(double.breaks);
    rows.set(kindOf(check), row);
  }
  return [
    "| check (how many) | the double that makes it fail |",
    "| --- | --- |",
    ...[...rows].map(([kind, { count, doubles: by }]) => `| ${kind} (${count}) | ${[...by].join("; ") || "**none**"} |`),
  ].join("\n");
}

// `npx tsx test/conformance/doubles.ts` prints the table for docs/testing.md.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) console.log(doublesTable());
