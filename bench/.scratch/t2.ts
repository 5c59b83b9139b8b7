import fc from "fast-check";
import { operation, operationIds, validator } from "/work/main/test/fuzz/document.ts";
import { arbitrary } from "/work/main/test/fuzz/schema-arbitrary.ts";
for (const id of operationIds) {
  const o = operation(id);
  const schemas = [...o.parameters.map(p => [p.name, p.schema] as const), ...(o.bodySchema ? [["body", o.bodySchema] as const] : [])];
  for (const [name, schema] of schemas) {
    const v = validator(schema); const samples = fc.sample(arbitrary(schema), { numRuns: 300, seed: 1 });
    const ok = samples.filter(x => v(x)).length;
    console.log(id, name, ok + "/300", ok < 300 ? JSON.stringify(samples.find(x=>!v(x))).slice(0,200) : "");
  }
}
