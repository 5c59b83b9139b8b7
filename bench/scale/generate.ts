// Deterministic encryption reports for the scale benchmark: a seeded PRNG (mulberry32), so
// every run, on every machine, loads the same records. Values follow the document's
// EncryptionReport schema; cardinalities are chosen like a real tenant's (a few dozen
// countries, thousands of accounts, two platforms) so filters have realistic selectivity.
import type { EncryptionReport } from "../../server/domain/index.js";

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const countries: [string, string, [string, string][]][] = [
  [
    "ES",
    "Spain",
    [
      ["MD", "Madrid"],
      ["CT", "Catalonia"],
      ["AN", "Andalusia"],
    ],
  ],
  [
    "PT",
    "Portugal",
    [
      ["11", "Lisbon"],
      ["13", "Porto"],
    ],
  ],
  [
    "FR",
    "France",
    [
      ["IDF", "Île-de-France"],
      ["ARA", "Auvergne-Rhône-Alpes"],
    ],
  ],
  [
    "DE",
    "Germany",
    [
      ["BE", "Berlin"],
      ["BY", "Bavaria"],
    ],
  ],
  [
    "US",
    "United States",
    [
      ["CA", "California"],
      ["NY", "New York"],
      ["TX", "Texas"],
    ],
  ],
  [
    "MX",
    "Mexico",
    [
      ["CMX", "Mexico City"],
      ["JAL", "Jalisco"],
    ],
  ],
  [
    "BR",
    "Brazil",
    [
      ["SP", "São Paulo"],
      ["RJ", "Rio de Janeiro"],
    ],
  ],
  [
    "GB",
    "United Kingdom",
    [
      ["ENG", "England"],
      ["SCT", "Scotland"],
    ],
  ],
  [
    "IT",
    "Italy",
    [
      ["62", "Lazio"],
      ["25", "Lombardy"],
    ],
  ],
  ["AR", "Argentina", [["C", "Buenos Aires"]]],
  ["CO", "Colombia", [["DC", "Bogotá"]]],
  ["NL", "Netherlands", [["NH", "North Holland"]]],
];
const statuses = ["NEW", "NEW", "NEW", "CONFIRMED", "REVOKED"];
const methods = ["EMAIL", "SMS", "TOTP"];
const versions = { ANDROID: ["12", "13", "14", "15"], IOS: ["16.7", "17.5", "18.1"] } as const;

export interface GenerateOptions {
  count: number;
  seed?: number;
  applicationId: string;
  organizationId: string;
  /** Distinct accounts the reports spread over. */
  accounts?: number;
}

/** First created_at (2025-01-01T00:00:00Z) and the span the reports cover (two years). */
export const epochMs = Date.UTC(2025, 0, 1);
export const spanMs = 2 * 365 * 86_400_000;

const hex = (random: () => number, length: number) => {
  let s = "";
  for (let i = 0; i < length; i++) s += "0123456789abcdef"[Math.floor(random() * 16)];
  return s;
};

export function generateReports(options: GenerateOptions): EncryptionReport[] {
  const random = mulberry32(options.seed ?? 42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const accountCount = options.accounts ?? 5000;
  const reports: EncryptionReport[] = new Array(options.count);
  for (let i = 0; i < options.count; i++) {
    const account = Math.floor(random() * accountCount) + 1;
    const [code, name, regions] = pick(countries);
    const [regionCode, regionName] = pick(regions);
    const deviceType = random() < 0.6 ? "ANDROID" : "IOS";
    reports[i] = {
      id: `rep_${i.toString(36).padStart(8, "0")}${hex(random, 4)}`,
      type: "ENCRYPTION_KEY",
      method: pick(methods),
      status: pick(statuses),
      organization_id: options.organizationId,
      application_id: options.applicationId,
      account_id: `usr_bench${account.toString(36).padStart(6, "0")}`,
      profile_id: `prf_bench${account.toString(36).padStart(6, "0")}`,
      ip_source: `10.${account % 256}.${Math.floor(account / 256) % 256}.${Math.floor(random() * 254) + 1}`,
      ip_device: `192.168.${Math.floor(random() * 256)}.${Math.floor(random() * 254) + 1}`,
      created_at: new Date(epochMs + Math.floor(random() * spanMs)).toISOString(),
      country: { code, name },
      region: { code: regionCode, name: regionName },
      device: { id: `dev_bench${account.toString(36).padStart(6, "0")}`, type: deviceType, version: pick(versions[deviceType]) },
      user: {
        id: account,
        email: `user${account}@bench.acme-shop.example`,
        account: {
          id: account,
          first_name: "Bench",
          last_name: `User ${account}`,
          image: `https://cdn.acme-shop.example/avatars/${account}.png`,
          is_active: account % 7 !== 0,
        },
      },
    };
  }
  return reports;
}
