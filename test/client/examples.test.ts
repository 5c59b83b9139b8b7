// The typed examples (generated/examples.ts) are frozen all the way down: a test that changes
// a fixture by mistake throws at once instead of changing it for every later test. copyOf()
// gives a writable copy, equal to the example and separate from it.
import { describe, expect, it } from "vitest";
import { copyOf, examples, responseExamples, WebhookFind } from "../../generated/examples.js";
import type { components } from "../../generated/schema.js";

function unfrozen(value: unknown, path = "$"): string[] {
  if (value === null || typeof value !== "object") return [];
  const here = Object.isFrozen(value) ? [] : [path];
  return here.concat(Object.entries(value).flatMap(([key, item]) => unfrozen(item, `${path}.${key}`)));
}

describe("typed examples", () => {
  it("every example, the examples map and responseExamples are deeply frozen", () => {
    expect(unfrozen(examples)).toEqual([]);
    expect(unfrozen(responseExamples)).toEqual([]);
  });

  it("changing one throws (strict mode)", () => {
    const target = WebhookFind.result as unknown as unknown[];
    expect(() => target.push({})).toThrow(TypeError);
    expect(() => Object.assign(WebhookFind.meta, { total_count: 0 })).toThrow(TypeError);
    expect(WebhookFind.result).toHaveLength(examples.WebhookFind.result.length);
  });

  it("copyOf() is an equal, writable, separate copy", () => {
    const copy: components["schemas"]["WebhookFindResponse"] = copyOf(WebhookFind);
    expect(copy).toEqual(WebhookFind);
    copy.result.pop();
    copy.meta.total_count = 0;
    expect(unfrozen(copy)).not.toEqual([]);
    expect(WebhookFind.result.length).toBeGreaterThan(copy.result.length);
  });
});
