// A vitest reporter for the matrix (vitest.matrix.config.ts): per project (environment and
// origin), the tests passed and not, and every error that escaped a test, written as JSON to
// MATRIX_REPORT for test/package/frontend-matrix.test.ts.
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

export default class MatrixReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string; name?: string }>): void {
    const projects: Record<string, { passed: number; failed: number; files: string[] }> = {};
    for (const module of testModules) {
      const entry = (projects[module.project.name] ??= { passed: 0, failed: 0, files: [] });
      entry.files.push(module.moduleId.split("/").pop()!);
      for (const test of module.children.allTests()) entry[test.result().state === "passed" ? "passed" : "failed"] += 1;
    }
    const errors = unhandledErrors.map((error) => `${error.name ?? "Error"}: ${(error.message ?? "").split("\n")[0]}`);
    writeFileSync(process.env.MATRIX_REPORT!, JSON.stringify({ projects, errors }, null, 2));
  }
}
