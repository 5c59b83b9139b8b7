// Prints the mock/server differences as docs/mock.md's table: `npx tsx test/mock/print-parity.ts`.
import { startMock } from "../../mock/index.js";
import { startServer } from "../../server/reference-server.js";
import { differences, differenceTable, parityCases } from "./parity.js";

const [mock, server] = await Promise.all([startMock(), startServer({ rateLimit: false, failedAuthLimit: false, cors: { origins: "*" } })]);
try {
  const rows = await differences(server.url, mock.url);
  console.log(`${rows.length} of ${parityCases.length} requests answered differently\n`);
  console.log(differenceTable(rows));
} finally {
  await Promise.all([mock.close(), server.close()]);
}
