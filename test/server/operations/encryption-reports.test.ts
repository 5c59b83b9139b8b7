// 4.3 filters: every filter exact-match, combined with AND; dates are inclusive Unix
// seconds; IPv6 compared in canonical form; e-mail case-insensitively; `group` through the
// users of the group. A property test compares the indexed query with a plain scan.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeIp } from "../../../server/rules/ip.js";
import type { EncryptionReport, ReportFilters } from "../../../server/domain/index.js";
import type { Seed } from "../../../server/seed/types.js";
import { callerA, callerB, offending, problemOf, seedWith, setup } from "./harness.js";

const ids = (body: { result: { id: string }[] }) => body.result.map((r) => r.id);
const find = (query: Record<string, unknown>, caller = callerA) => setup().call("findEncryptionReports", { query: query as never, caller });
const maria = "rep_6b2d9f4a1c8e"; // ES/MD, ANDROID 14, 203.0.113.24 / 198.51.100.7, 2026-03-02T14:05:12.015Z
const tomas = "rep_2e7c1a9f5b3d"; // PT/11, IOS 17.4, 2001:db8::42, 2026-02-27T08:41:04.220Z

describe("findEncryptionReports filters", () => {
  it.each([
    ["country", { country: "ES" }, [maria]],
    ["country, no match", { country: "FR" }, []],
    ["region", { region: "11" }, [tomas]],
    ["device_type", { device_type: "IOS" }, [tomas]],
    ["device_version", { device_version: "14" }, [maria]],
    ["device_version is exact, not a prefix", { device_version: "17" }, []],
    ["status", { status: "NEW" }, [maria, tomas]],
    ["status, no match", { status: "OLD" }, []],
    ["account", { account: "usr_1c5e8a3d7f2b" }, [tomas]],
    ["email", { email: "maria.lopez@acme-shop.example" }, [maria]],
    ["email, any case", { email: "Maria.Lopez@ACME-shop.example" }, [maria]],
    ["ip on ip_source", { ip: "203.0.113.24" }, [maria]],
    ["ip on ip_device", { ip: "198.51.100.7" }, [maria]],
    ["ipv6, compressed", { ip: "2001:db8::42" }, [tomas]],
    ["ipv6, expanded and upper case", { ip: "2001:0DB8:0:0:0:0:0:42" }, [tomas]],
    ["group of maria", { group: "7" }, [maria]],
    ["group of tomas", { group: "3" }, [tomas]],
    ["unknown group", { group: "99" }, []],
    ["AND of two filters that match apart", { country: "ES", device_type: "IOS" }, []],
    ["AND of two filters that match together", { country: "PT", device_type: "IOS", status: "NEW" }, [tomas]],
  ])("%s", async (_name, query, expected) => {
    expect(ids(await find(query))).toEqual(expected);
  });

  it("never answers another application's report, even for its values", async () => {
    // B's report shares A's ip, country, region and device; A sees only its own.
    expect(ids(await find({ ip: "203.0.113.24", country: "ES", region: "MD" }))).toEqual([maria]);
    expect(ids(await find({ group: "7" }, callerB))).toEqual(["rep_8f3a1d6c2e9b"]);
  });
});

describe("findEncryptionReports dates (Unix seconds, inclusive)", () => {
  const mariaSecond = Math.floor(Date.parse("2026-03-02T14:05:12.015Z") / 1000);
  const tomasSecond = Math.floor(Date.parse("2026-02-27T08:41:04.220Z") / 1000);

  it("start_date includes a report created in that very second", async () => {
    expect(ids(await find({ start_date: mariaSecond }))).toEqual([maria]);
    expect(ids(await find({ start_date: mariaSecond + 1 }))).toEqual([]);
  });

  it("end_date includes a report created within that second", async () => {
    expect(ids(await find({ end_date: tomasSecond }))).toEqual([tomas]);
    expect(ids(await find({ end_date: tomasSecond - 1 }))).toEqual([]);
  });

  it("start_date = end_date selects that second", async () => {
    expect(ids(await find({ start_date: mariaSecond, end_date: mariaSecond }))).toEqual([maria]);
  });

  it("a range combines with the other filters", async () => {
    expect(ids(await find({ start_date: tomasSecond, end_date: mariaSecond, status: "NEW" }))).toEqual([maria, tomas]);
    expect(ids(await find({ start_date: tomasSecond, end_date: mariaSecond, country: "PT" }))).toEqual([tomas]);
  });

  it("start_date after end_date is 400 naming both", async () => {
    const problem = await problemOf(() => find({ start_date: mariaSecond, end_date: tomasSecond }), "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "query", name: "start_date" }), expect.objectContaining({ in: "query", name: "end_date" })]);
    expect(offending(problem)).toEqual(["start_date", "end_date"]);
  });
});

// --- the indexed query against a plain scan, on random data and random filters ---

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const countries = ["ES", "PT", "FR"] as const;
const regions = ["MD", "11", "CT"] as const;
const versions = ["14", "17.4", "13"] as const;
const statuses = ["NEW", "SEEN"] as const;
const accounts = ["usr_7d2e9a4c1b6f", "usr_1c5e8a3d7f2b", "usr_9f9f9f9f9f9f"] as const;
const emails = ["maria.lopez@acme-shop.example", "tomas.reyes@acme-shop.example"] as const;
const ips = ["203.0.113.24", "198.51.100.7", "2001:db8::7", "2001:db8:0:0:0:0:0:42"] as const;
const groupsOf: Record<string, number[]> = { usr_7d2e9a4c1b6f: [7], usr_1c5e8a3d7f2b: [3, 7] };
const base = Date.parse("2026-01-01T00:00:00.000Z");

const reportArb = (template: EncryptionReport) =>
  fc
    .record({
      n: fc.nat(9_999),
      offsetMs: fc.integer({ min: 0, max: 20_000 }),
      country: pick(countries),
      region: pick(regions),
      type: pick(["ANDROID", "IOS"] as const),
      version: pick(versions),
      status: pick(statuses),
      account: pick(accounts),
      email: pick(emails),
      upper: fc.boolean(),
      ipSource: pick(ips),
      ipDevice: pick(ips),
    })
    .map(
      (r): EncryptionReport => ({
        ...template,
        id: `rep_${r.n}`,
        created_at: new Date(base + r.offsetMs).toISOString(),
        country: { code: r.country, name: r.country },
        region: { code: r.region, name: r.region },
        device: { ...template.device, type: r.type, version: r.version },
        status: r.status,
        account_id: r.account,
        user: { ...template.user, email: r.upper ? r.email.toUpperCase() : r.email },
        ip_source: r.ipSource,
        ip_device: r.ipDevice,
      }),
    );

// Up to three filters at a time, so that answers are often non-empty.
const filtersArb = fc
  .tuple(
    fc.record({
      country: pick(countries),
      region: pick(regions),
      device_type: pick(["ANDROID", "IOS"] as const),
      device_version: pick(versions),
      status: pick(statuses),
      account: pick(accounts),
      email: pick(emails),
      ip: pick([...ips, "2001:0db8::0042"]),
      group: pick(["3", "7", "8"]),
      start_date: fc.integer({ min: base / 1000 - 1, max: base / 1000 + 21 }),
      end_date: fc.integer({ min: base / 1000 - 1, max: base / 1000 + 21 }),
    }),
    fc.subarray(["country", "region", "device_type", "device_version", "status", "account", "email", "ip", "group", "start_date", "end_date"] as const, { maxLength: 3 }),
  )
  .map(([values, keys]): ReportFilters => Object.fromEntries(keys.map((key) => [key, values[key]])));

function scan(records: EncryptionReport[], f: ReportFilters): string[] {
  const second = (r: EncryptionReport) => Math.floor(Date.parse(r.created_at) / 1000);
  return records
    .filter((r) => f.country === undefined || r.country.code === f.country)
    .filter((r) => f.region === undefined || r.region.code === f.region)
    .filter((r) => f.device_type === undefined || r.device.type === f.device_type)
    .filter((r) => f.device_version === undefined || r.device.version === f.device_version)
    .filter((r) => f.status === undefined || r.status === f.status)
    .filter((r) => f.account === undefined || r.account_id === f.account)
    .filter((r) => f.email === undefined || r.user.email.toLowerCase() === f.email.toLowerCase())
    .filter((r) => f.ip === undefined || [r.ip_source, r.ip_device].map(normalizeIp).includes(normalizeIp(f.ip)))
    .filter((r) => f.group === undefined || (groupsOf[r.account_id] ?? []).includes(Number(f.group)))
    .filter((r) => f.start_date === undefined || second(r) >= f.start_date)
    .filter((r) => f.end_date === undefined || second(r) <= f.end_date)
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? 1 : -1))
    .map((r) => r.id);
}

describe("findEncryptionReports against a plain scan", () => {
  it("answers the same records, totals and pages for any filters", async () => {
    let template!: EncryptionReport;
    const seedFor = (records: EncryptionReport[]): Seed =>
      seedWith((seed) => {
        const app = seed.applications[0]!;
        template ??= app.encryption_reports[0]!;
        app.users = app.users.map((u) => ({ ...u, groups: groupsOf[u.id] ?? [] }));
        app.encryption_reports = records;
      });
    seedFor([]);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(reportArb(template), { maxLength: 120, selector: (r) => r.id }),
        filtersArb,
        fc.integer({ min: 10, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        async (records, filters, limit, page) => {
          fc.pre(filters.start_date === undefined || filters.end_date === undefined || filters.start_date <= filters.end_date);
          const { store } = setup(seedFor(records));
          const expected = scan(records, filters);
          const answer = await store.encryptionReports(callerA.applicationId, filters, { limit, page });
          expect(answer.meta.total_count).toBe(expected.length);
          expect(answer.meta.page_count).toBe(Math.ceil(expected.length / limit));
          expect(answer.result.map((r) => r.id)).toEqual(expected.slice((page - 1) * limit, page * limit));
        },
      ),
      { numRuns: 500 },
    );
  });
});
