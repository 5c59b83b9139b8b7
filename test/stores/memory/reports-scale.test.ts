// GET /reports/encryption at scale: 100 000 reports bulk-loaded into one application, then
// filtered, paged queries answer correctly (against a plain scan). Their speed (p50 under
// 10 ms at 100k) is a benchmark target, measured by `npm run bench:scale`, not timed here.
import { beforeAll, describe, expect, it } from "vitest";
import type { EncryptionReport, ReportFilters, Store } from "../../../server/domain/index.js";
import { callerA, setup } from "../../server/operations/harness.js";

const size = 100_000;
const countries = ["ES", "PT", "FR", "DE", "IT", "US", "GB", "NL"];
const base = Date.parse("2025-01-01T00:00:00.000Z");
const app = callerA.applicationId;

function reports(template: EncryptionReport): EncryptionReport[] {
  return Array.from({ length: size }, (_, i) => {
    const country = countries[i % 8]!;
    const user = 1 + (i % 500);
    return {
      ...template,
      id: `rep_${i.toString(16).padStart(12, "0")}`,
      // Shuffled creation times, so the load has to sort.
      created_at: new Date(base + ((i * 7919) % size) * 30_000).toISOString(),
      account_id: `usr_${user.toString(16).padStart(12, "0")}`,
      ip_source: `10.0.${(i >> 8) & 255}.${i & 255}`,
      ip_device: i % 3 === 0 ? "198.51.100.7" : "2001:db8::7",
      status: i % 10 === 0 ? "SEEN" : "NEW",
      country: { code: country, name: country },
      region: { code: `R${i % 20}`, name: `Region ${i % 20}` },
      device: { id: `dev_${i % 2000}`, type: i % 2 === 0 ? "IOS" : "ANDROID", version: String(10 + (i % 7)) },
      user: { id: user, email: `user${user}@acme-shop.example`, account: { ...template.user.account, id: user } },
    };
  });
}

const seconds = (iso: string) => Date.parse(iso) / 1000;
/** Each query with the page compared: one that holds records, or two empty pages would agree. */
const queries: [string, ReportFilters, number?][] = [
  ["no filter", {}],
  ["one common filter", { status: "NEW" }],
  ["two large filters", { country: "ES", status: "NEW" }],
  ["three filters", { ip: "2001:0db8::7", region: "R3", device_type: "ANDROID" }],
  ["a rare value", { email: "USER42@acme-shop.example" }, 2],
  ["dates and filters", { start_date: seconds("2025-01-10T00:00:00.000Z"), end_date: seconds("2025-01-20T00:00:00.000Z"), country: "DE", device_version: "12" }],
];

describe(`encryption reports at ${size.toLocaleString("en")} records`, () => {
  let store: Store;
  let all: EncryptionReport[];

  beforeAll(async () => {
    ({ store } = setup());
    const demo = (await store.encryptionReports(app, {}, { limit: 10, page: 1 })).result;
    const generated = reports(demo[0]!);
    await store.addReports(app, generated);
    all = [...demo, ...generated];
  }, 120_000);

  it.each(queries)("%s: the same answer as a plain scan, a page of 100 that holds records", async (_name, filters, page = 3) => {
    const answer = await store.encryptionReports(app, filters, { limit: 100, page });
    expect(answer.result.length, "the page compared holds records").toBeGreaterThan(0);
    const everything = await store.encryptionReports(app, {}, { limit: 100, page: 1 });
    expect(everything.meta.total_count).toBe(all.length);
    const ip = filters.ip === undefined ? undefined : "2001:db8::7";
    const expected = all
      .filter((r) => (filters.status === undefined || r.status === filters.status) && (filters.country === undefined || r.country.code === filters.country))
      .filter((r) => (ip === undefined || r.ip_source === ip || r.ip_device === ip) && (filters.region === undefined || r.region.code === filters.region))
      .filter(
        (r) =>
          (filters.device_type === undefined || r.device.type === filters.device_type) &&
          (filters.device_version === undefined || r.device.version === filters.device_version),
      )
      .filter((r) => filters.email === undefined || r.user.email === filters.email.toLowerCase())
      .filter(
        (r) =>
          (filters.start_date === undefined || Date.parse(r.created_at) >= filters.start_date * 1000) &&
          (filters.end_date === undefined || Date.parse(r.created_at) < (filters.end_date + 1) * 1000),
      )
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? -1 : 1));
    expect(answer.meta.total_count).toBe(expected.length);
    expect(answer.result.map((r) => r.id)).toEqual(expected.slice((page - 1) * 100, page * 100).map((r) => r.id));
  });
});
