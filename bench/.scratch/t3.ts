import fc from "fast-check";
import { validRequest, mutatedRequest } from "../../test/fuzz/requests.ts";
for (const id of ["createNotification","findEncryptionReports","readWidget","saveEmailTransport"] as const) {
  for (const r of fc.sample(validRequest(id), {numRuns: 2, seed: 3})) console.log(JSON.stringify(r).slice(0,400));
  for (const r of fc.sample(mutatedRequest(id), {numRuns: 3, seed: 3})) console.log(JSON.stringify(r).slice(0,300));
}
console.time("gen"); for (const id of ["createNotification","findEncryptionReports","saveEmailTransport","updateSmsProvider"] as const) fc.sample(fc.oneof(validRequest(id), mutatedRequest(id)), {numRuns: 300}); console.timeEnd("gen");
