// Checks of what list operations promise beyond their schema, derived from the document (a
// parameter or operation added there is checked without editing this file):
// - every filter (a query parameter other than `limit`/`page`) narrows: a target that
//   ignores it answers the whole list. An enum filter's values split the list (their totals
//   add up to at most the whole); any other filter gets a value valid against its schema
//   that no record is expected to hold (the first of a few candidates the schema accepts),
//   or, for an integer, its minimum or its maximum, one of which must narrow (a date range);
// - a filter whose description names the record field it compares (`region.code`, "`ip_source`
//   or `ip_device`") keeps exactly the records holding the value of the first record;
// - a list described as "newest first" comes in non-increasing `created_at` order.
// Each filter check needs records to compare: with none in the unfiltered list it fails naming that.
import { operations, type OperationId } from "../generated/operations.js";
import { idNeeds, rawRequest } from "./calls.js";
import type { Check } from "./check.js";
import { listOperationOf, queryParameters, recordDeclares, schemaAccepts, type QueryParameter } from "./document.js";
import { expectSuccess, expectThat } from "./expect.js";
import { viaFetch } from "./http.js";
import type { Target } from "./target.js";

type Page = { result: Record<string, unknown>[]; meta: { total_count: number } };
const paging = new Set(["limit", "page"]);
const statefulBecause = "filters and order need the target's records; a mock answers the same example whatever the query";

async function list(target: Target, operationId: OperationId, query: Record<string, string>): Promise<Page> {
  const observed = await viaFetch(target, { ...rawRequest(operationId, target), query: { limit: "100", ...query } });
  expectSuccess(operationId, observed);
  return observed.body as Page;
}

async function whole(target: Target, operationId: OperationId): Promise<Page> {
  const page = await list(target, operationId, {});
  expectThat(page.meta.total_count > 0, `the unfiltered list is empty: the checked application needs records here to check its filters (fixture error)`);
  return page;
}

/** Values a string filter can take that no real record holds; the first the schema accepts is used. */
const noMatchCandidates = ["ZZ", "9999999999", "NO_SUCH_VALUE", "192.0.2.1", "no-match@conformance.invalid", "zz-no-match", "0.0.0-no-match"];

function narrowsCheck(operationId: OperationId, parameter: QueryParameter): Check {
  const base = { operationId, statefulBecause, needs: idNeeds(operationId) };
  const { name, schema } = parameter;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map(String);
    return {
      ...base,
      name: `${operationId}: the ${name} filter splits the list (${values.join(", ")})`,
      run: async (target) => {
        const total = (await whole(target, operationId)).meta.total_count;
        let sum = 0;
        for (const value of values) sum += (await list(target, operationId, { [name]: value })).meta.total_count;
        expectThat(sum <= total, `the ${name} filter is ignored: its ${values.length} values find ${sum} records between them, the unfiltered list ${total}`);
      },
    };
  }
  if (schema.type === "integer") {
    return {
      ...base,
      name: `${operationId}: the ${name} filter narrows the list at its minimum or maximum`,
      run: async (target) => {
        const total = (await whole(target, operationId)).meta.total_count;
        const ends = [schema.minimum, schema.maximum].filter((value): value is number => typeof value === "number");
        const totals: number[] = [];
        for (const value of ends) totals.push((await list(target, operationId, { [name]: String(value) })).meta.total_count);
        expectThat(
          totals.some((found) => found < total),
          `the ${name} filter is ignored: ${ends.map((v, i) => `${name}=${v} finds ${totals[i]}`).join(", ")} of ${total}`,
        );
      },
    };
  }
  const value = noMatchCandidates.find((candidate) => schemaAccepts(schema, candidate));
  return {
    ...base,
    name: `${operationId}: the ${name} filter narrows the list (${name}=${value ?? "?"} matches no record)`,
    run: async (target) => {
      expectThat(value !== undefined, `no value for ${name} that its schema accepts (the conformance suite needs a candidate)`);
      const total = (await whole(target, operationId)).meta.total_count;
      const found = (await list(target, operationId, { [name]: value })).meta.total_count;
      expectThat(found === 0, `the ${name} filter is ignored: ${name}=${value} finds ${found} of ${total} records`);
    },
  };
}

/** The value at a dotted path (`region.code`) of a record. */
const at = (record: unknown, path: string) => path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], record);
const same = (a: unknown, b: unknown) => (typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b);

function keepsMatchesCheck(operationId: OperationId, parameter: QueryParameter): Check | undefined {
  // Only names that are fields of the records (a description may also name another operation's field).
  const fields = [...(parameter.description ?? "").matchAll(/`([a-z_]+(?:\.[a-z_]+)*)`/g)]
    .map((match) => match[1]!)
    .filter((field) => recordDeclares(operationId, field));
  if (fields.length === 0 || parameter.schema.type === "integer") return undefined;
  const { name } = parameter;
  return {
    operationId,
    statefulBecause,
    needs: idNeeds(operationId),
    name: `${operationId}: the ${name} filter keeps exactly the records whose ${fields.join(" or ")} is the value`,
    run: async (target) => {
      const { result } = await whole(target, operationId);
      const held = result
        .map((record) => fields.map((field) => at(record, field)).find((v) => typeof v === "string" || typeof v === "number"))
        .find((v) => v !== undefined);
      expectThat(held !== undefined, `no record of the unfiltered list holds ${fields.join(" or ")}`);
      const value = String(held);
      const filtered = await list(target, operationId, { [name]: value });
      const expected = result.filter((record) => fields.some((field) => same(at(record, field), held))).length;
      const wrong = filtered.result.filter((record) => !fields.some((field) => same(at(record, field), held)));
      expectThat(filtered.meta.total_count > 0, `${name}=${value} (held by a record) finds nothing`);
      expectThat(wrong.length === 0, `${name}=${value} also returns ${wrong.length} records whose ${fields.join(" or ")} differs`);
      expectThat(result.length < 100 ? filtered.meta.total_count === expected : true, `${name}=${value}: expected ${expected} records, got ${filtered.meta.total_count}`);
    },
  };
}

function newestFirstCheck(operationId: OperationId): Check {
  return {
    operationId,
    statefulBecause,
    needs: idNeeds(operationId),
    name: `${operationId}: newest first (created_at never increases down the list)`,
    run: async (target) => {
      // An empty list is in order: the fixture may have no records here (a webhook without deliveries).
      const { result } = await list(target, operationId, {});
      const times = result.map((record) => Date.parse(String(record.created_at)));
      const out = times.findIndex((time, i) => i > 0 && time > times[i - 1]!);
      expectThat(out === -1, `record ${out} (${String(result[out]?.created_at)}) is newer than record ${out - 1} (${String(result[out - 1]?.created_at)})`);
    },
  };
}

const listIds = (Object.keys(operations) as OperationId[]).filter((operationId) => operations[operationId].list);

/** Every filter and order of every list operation the document declares. */
export const listChecks: Check[] = listIds.flatMap((operationId) => {
  const filters = queryParameters(operationId).filter((parameter) => !paging.has(parameter.name));
  return [
    ...filters.map((parameter) => narrowsCheck(operationId, parameter)),
    ...filters.flatMap((parameter) => keepsMatchesCheck(operationId, parameter) ?? []),
    ...(/newest first/i.test(listOperationOf(operationId).description ?? "") ? [newestFirstCheck(operationId)] : []),
  ];
});
