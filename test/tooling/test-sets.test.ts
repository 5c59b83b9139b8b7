// docs/testing.md names every file of the inner loop's directories that the inner loop leaves
// out for starting another process, exactly as test/vitest.in-process.ts decides it (the list
// is written by `npx tsx test/test-sets.ts`); and the rule sees a process started through a
// helper as well as one started by the file itself.
import { describe, expect, it } from "vitest";
import { documentedTestSets, renderedTestSets } from "../test-sets.js";
import { childProcessTests, startsProcess } from "../vitest.in-process.js";

describe("the inner loop's set", () => {
  it("is the one docs/testing.md lists (npx tsx test/test-sets.ts writes it)", () => {
    expect(documentedTestSets()).toBe(renderedTestSets());
  });

  it("leaves out the files that start a process, themselves or through a helper, and no other", () => {
    expect(childProcessTests).toEqual(expect.arrayContaining(["test/express-entry/host-app.test.ts", "test/openapi/prism.test.ts", "test/client/browser.test.ts"]));
    expect(startsProcess("test/stores/postgres/unavailable.test.ts")).toBe("node:child_process via test/support/server-process.ts");
    expect(startsProcess("test/client/hostile.test.ts")).toBeUndefined();
    // Through the PostgreSQL helpers a cluster starts only with TEST_POSTGRES=on: not followed.
    expect(startsProcess("test/stores/notifications.test.ts")).toBeUndefined();
  });
});
