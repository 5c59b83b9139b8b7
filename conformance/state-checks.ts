// Checks only a target that keeps state can pass: a stateless mock answers the documented
// example whatever came before, cannot know that an id belongs to another application, and
// cannot look a receiver up. Each says why, and is reported as skipped on such a target.
import { operations, type OperationId } from "../generated/operations.js";
import type { components } from "../generated/schema.js";
import { clientCalls, consumedBy, hasId, idFixtures, idNeeds, notificationBody, rawRequest } from "./calls.js";
import type { Check } from "./check.js";
import { expectProblem, expectSuccess, expectThat } from "./expect.js";
import { viaClient, viaFetch, type Observed } from "./http.js";
import type { Target } from "./target.js";

type SmsProviderUpdate = components["schemas"]["SmsProviderUpdate"];

const operationIds = Object.keys(operations) as OperationId[];
const examplesOnly = "a mock answers the same example every time";

function resultOf<T>(operationId: OperationId, observed: Observed): T {
  expectSuccess(operationId, observed);
  return (observed.body as { result: T }).result;
}

async function updateProvider(target: Target, id: string, body: SmsProviderUpdate): Promise<{ sort: number }> {
  const observed = await viaClient(target, (api) => api.PUT("/sms/providers/{id}", { params: { path: { id } }, body }));
  return resultOf("updateSmsProvider", observed);
}

const sortMoves: Check = {
  name: "updateSmsProvider: sort UP moves one place towards 1, DOWN one away, a no-op at the end",
  operationId: "updateSmsProvider",
  statefulBecause: `positions move only where they are kept; ${examplesOnly}`,
  needs: ["smsProvider"],
  run: async (target) => {
    const id = target.fixtures.smsProvider!;
    const expectSort = async (body: SmsProviderUpdate, expected: number, what: string) => {
      const sort = (await updateProvider(target, id, body)).sort;
      expectThat(sort === expected, `${what}: expected sort ${expected}, got ${sort}`);
    };
    // Every path ends where it started, so a shared target is left as found.
    const start = (await updateProvider(target, id, {})).sort;
    if (start > 1) {
      await expectSort({ sort: "UP" }, start - 1, `UP from ${start}`);
      if (start === 2) await expectSort({ sort: "UP" }, 1, "UP at position 1 (a no-op)");
      await expectSort({ sort: "DOWN" }, start, `DOWN from ${start - 1}`);
    } else {
      await expectSort({ sort: "UP" }, 1, "UP at position 1 (a no-op)");
      await expectSort({ sort: "DOWN" }, 2, "DOWN from 1");
      await expectSort({ sort: "UP" }, 1, "UP from 2");
    }
  },
};

const undefaultConflict: Check = {
  name: "updateSmsProvider: 409 problem for is_default false on the default provider",
  operationId: "updateSmsProvider",
  statefulBecause: "only a target that tracks the default provider can refuse",
  needs: ["smsProvider"],
  run: async (target) =>
    expectProblem(
      409,
      await viaClient(target, (api) => api.PUT("/sms/providers/{id}", { params: { path: { id: target.fixtures.smsProvider! } }, body: { is_default: false } })),
    ),
};

const otherApplicationBecause = "only a target that keeps records knows which application an id belongs to";

function asOtherApplication(target: Target): Target {
  const other = target.fixtures.otherApplication;
  if (!other) throw new Error("needs fixtures.otherApplication");
  return { ...target, ...other };
}

// Another application's 404 for each record is a step of the tenant-isolation workflow; a
// deleting operation's stays here: on a target that leaks, the call deletes the record, so
// it takes a disposable one and runs last (Check.consumes).
function deletionIsolationCheck(operationId: OperationId): Check {
  return {
    name: `${operationId}: 404 problem for this application's ${idFixtures[operationId] ?? "id"} asked by another application`,
    operationId,
    statefulBecause: otherApplicationBecause,
    needs: [...idNeeds(operationId), "otherApplication"],
    consumes: consumedBy(operationId)!,
    run: async (target) => expectProblem(404, await viaClient(asOtherApplication(target), (api) => clientCalls[operationId](api, target))),
  };
}

const listIsolation: Check = {
  name: "findWebhooks: another application's list holds none of this application's webhooks",
  operationId: "findWebhooks",
  statefulBecause: otherApplicationBecause,
  needs: ["webhook", "otherApplication"],
  run: async (target) => {
    const ours = resultOf<{ id: string }[]>("findWebhooks", await viaClient(target, (api) => clientCalls.findWebhooks(api, target, { limit: 100 })));
    expectThat(ours.length > 0, "the checked application has no webhooks to compare with");
    const theirs = resultOf<{ id: string }[]>(
      "findWebhooks",
      await viaClient(asOtherApplication(target), (api) => clientCalls.findWebhooks(api, target, { limit: 100 })),
    );
    const leaked = theirs.filter((webhook) => ours.some((own) => own.id === webhook.id));
    expectThat(leaked.length === 0, `the other application sees ${leaked.map((w) => w.id).join(", ")}`);
  },
};

const unknownReceiver: Check = {
  name: "createNotification: 400 problem naming a receiver that does not exist",
  operationId: "createNotification",
  statefulBecause: "receivers are looked up among the target's users",
  needs: ["apiSecret"],
  run: async (target) => {
    const receiver = "usr_000000000000";
    const { broadcast: _broadcast, groups: _groups, ...body } = notificationBody();
    const observed = await viaFetch(target, { ...rawRequest("createNotification"), body: { ...body, receivers: [receiver] } });
    expectProblem(400, observed);
    expectThat(observed.text.includes(receiver), `the problem does not name the receiver ${receiver}: ${observed.text}`);
  },
};

const sendAtInThePast: Check = {
  name: "createNotification: 400 problem for send_at an hour in the past",
  operationId: "createNotification",
  statefulBecause: "the 60-second rule needs the target's clock, which no schema states",
  needs: ["apiSecret"],
  run: async (target) => {
    const body = { ...notificationBody(), send_at: Math.floor(Date.now() / 1000) - 3600 };
    expectProblem(400, await viaFetch(target, { ...rawRequest("createNotification"), body }));
  },
};

const reversedDates: Check = {
  name: "findEncryptionReports: 400 problem for start_date after end_date",
  operationId: "findEncryptionReports",
  statefulBecause: "start_date <= end_date relates two parameters, which no schema states",
  run: async (target) =>
    expectProblem(400, await viaFetch(target, { ...rawRequest("findEncryptionReports"), query: { start_date: "1798761599", end_date: "1767225600" } })),
};

function pastTheEndCheck(operationId: OperationId): Check {
  return {
    name: `${operationId}: a page past the end is an empty result with the real totals`,
    operationId,
    statefulBecause: `paging needs the records; ${examplesOnly}`,
    needs: idNeeds(operationId),
    run: async (target) => {
      type Meta = { total_count: number; page_count: number; current_count: number; current_page: number };
      type Page = { result: unknown[]; meta: Meta };
      const fetchPage = async (page: number): Promise<Page> => {
        const observed = await viaClient(target, (api) => clientCalls[operationId](api, target, { page }));
        expectSuccess(operationId, observed);
        return observed.body as Page;
      };
      // The real totals are those of page 1 of the same list (same filters, same limit); the
      // lists these checks read are not written to by any check, so they cannot move between.
      const first = (await fetchPage(1)).meta;
      const page = 999;
      expectThat(first.page_count < page, `meta.page_count of page 1 is ${first.page_count}: page ${page} is not past the end`);
      const { result, meta } = await fetchPage(page);
      expectThat(result.length === 0, `result: expected [], got ${result.length} records`);
      expectThat(meta.current_count === 0, `meta.current_count: expected 0, got ${meta.current_count}`);
      // An empty list reports page 1 whatever page is asked (the source says so).
      const expectedPage = first.total_count === 0 ? 1 : page;
      expectThat(meta.current_page === expectedPage, `meta.current_page: expected ${expectedPage}, got ${meta.current_page}`);
      for (const total of ["total_count", "page_count"] as const) {
        expectThat(meta[total] === first[total], `meta.${total}: expected ${first[total]} (as on page 1), got ${meta[total]}`);
      }
    },
  };
}

/** The checks that need a target with state (and some a second application). */
export const stateChecks: Check[] = [
  sortMoves,
  undefaultConflict,
  ...operationIds.filter((operationId) => hasId(operationId) && consumedBy(operationId)).map(deletionIsolationCheck),
  listIsolation,
  unknownReceiver,
  sendAtInThePast,
  reversedDates,
  ...operationIds.filter((operationId) => operations[operationId].list).map(pastTheEndCheck),
];
