// Shared set-up of the operation tests: a fresh store over the demo seed (or a variant of
// it) per test, the handlers over a fixed clock, and callers for applications A and B.
import { expect } from "vitest";
import type { OperationId } from "../../../generated/operations.js";
import type { Caller, HandlerInput, Handlers, SuccessBody } from "../../../server/contract-layer/contract.js";
import { createHandlers } from "../../../server/handlers/index.js";
import { ApiProblem, type ProblemCode, type ProblemErrorItem } from "../../../server/problems.js";
import { checkSeed, loadSeed } from "../../../server/seed/load.js";
import type { Seed } from "../../../server/seed/types.js";
import { createStore } from "../../../server/store/memory.js";
import type { Store } from "../../../server/domain/index.js";
import { demo } from "../../support/demo.js";

/** The demo applications A and B, read from the seed (test/support/demo.ts). */
export { demo } from "../../support/demo.js";

export const callerA: Caller = { applicationId: demo.a.applicationId, organizationId: demo.a.organizationId };
export const callerB: Caller = { applicationId: demo.b.applicationId, organizationId: demo.b.organizationId };

/** The instant the fixed clock answers (after every demo record, before the 2030 example). */
export const fixedNow = new Date("2026-03-10T12:00:00.000Z");

const demoSeed = loadSeed();

/** A deep copy of the demo seed, changed by `change` and checked like a seed file. */
export function seedWith(change: (seed: Seed) => void): Seed {
  const seed = structuredClone(demoSeed);
  change(seed);
  return checkSeed(seed);
}

/** The demo seed with application A holding `n` providers `sms_p1`..`sms_pn`, the first the default. */
export function seedWithProviders(n: number): Seed {
  return seedWith((seed) => {
    const template = seed.applications[0]!.sms_providers[0]!;
    seed.applications[0]!.sms_providers = Array.from({ length: n }, (_, i) => ({
      ...template,
      id: `sms_p${i + 1}`,
      name: `Provider ${i + 1}`,
      is_default: i === 0,
      sort: i + 1,
    }));
  });
}

export interface Setup {
  store: Store;
  handlers: Handlers;
  /** Calls operation `op` as `caller` (default A) with list defaults applied. */
  call<K extends OperationId>(op: K, input?: Partial<HandlerInput<K>>): Promise<SuccessBody<K>>;
}

/** A fresh store and handlers; `now` is what the clock answers. */
export function setup(seed: Seed = demoSeed, now: Date = fixedNow): Setup {
  return setupOn(createStore(seed), now);
}

/** Handlers over `store` (any implementation of the port); `now` is what the clock answers. */
export function setupOn(store: Store, now: Date = fixedNow): Setup {
  const handlers = createHandlers({ store, clock: () => now });
  return {
    store,
    handlers,
    async call(op, input = {}) {
      const handler = handlers[op] as (input: unknown) => unknown;
      return (await handler({
        path: {},
        body: undefined,
        caller: callerA,
        ...input,
        query: { limit: 10, page: 1, ...(input.query as object | undefined) },
      })) as never;
    },
  };
}

/** Runs `action` and returns the ApiProblem it throws, checking its code. */
export async function problemOf(action: () => unknown, code: ProblemCode): Promise<ApiProblem> {
  let thrown: unknown;
  try {
    await action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected an ApiProblem ${code}`).toBeInstanceOf(ApiProblem);
  const problem = thrown as ApiProblem;
  expect(problem.code).toBe(code);
  return problem;
}

/** The pointers or names of a problem's errors. */
export function offending(problem: ApiProblem): string[] {
  return (problem.errors ?? []).map((error: ProblemErrorItem) => error.pointer ?? error.name ?? "");
}
