// TRUST_PROXY of `npm start` and `trustProxy` of the entry: which proxies in front of the
// server to believe about the client address (X-Forwarded-For), which the per-address
// failed-authentication limit and the limits of requests without a key count by. Off by
// default: the address is the socket's, and a client's X-Forwarded-For is ignored, so it can
// neither rotate its address nor borrow a victim's. Behind N proxies that each append the
// address they saw, `N` takes the address N hops from the server; a comma list of
// addresses/CIDRs (or Express's `loopback`, `linklocal`, `uniquelocal`) believes exactly
// those proxies. Settings that believe (nearly) everyone are refused at start-up, however
// written (see `trustProxyProblem`).
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Express's `trust proxy` as far as it is safe: hops or the proxies' addresses, never "trust all". */
export type TrustProxy = number | string | readonly string[] | false;

/**
 * The largest hop count taken. A count trusts that many hops nearest the server whatever
 * their addresses; one above the real chain makes the leftmost X-Forwarded-For entries,
 * which the client writes, its address. Real chains (CDN, load balancer, ingress, sidecar)
 * are a handful of hops: 10 leaves room, while 999999 is "trust everyone" by another name.
 */
export const maxTrustedHops = 10;

/**
 * The largest share of one address family a list may trust. Every private and special range
 * a proxy fleet lives in (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, 100.64/10 of IPv4;
 * fc00::/7 and fe80::/10 of IPv6) is under 1% of its family; a list above 1/64 trusts public
 * addresses by the million, and one covering the family (`0.0.0.0/1,128.0.0.0/1`,
 * `::/1,8000::/1`, `::ffff:0:0/96`) lets any client choose its address.
 */
export const maxTrustedShare = 1 / 64;
/** The same bound as the divisor of a family's size, for comparing address counts exactly. */
const maxTrustedDivisor = BigInt(1 / maxTrustedShare);

/** Express's names for address ranges (proxy-addr), as CIDRs. */
const namedRanges: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

type Family = "IPv4" | "IPv6";
const bits: Record<Family, number> = { IPv4: 32, IPv6: 128 };

/**
 * A CIDR (or one address) as a family and a range of addresses; IPv4-mapped IPv6 ranges as
 * IPv4, as proxy-addr matches them. An address must pass node:net's check and parse in
 * ipaddr.js, as proxy-addr asks (ipaddr.js alone takes `10` or `0x0a`; node:net takes
 * `::1.2.3.4`, on which proxy-addr, and so Express, throws).
 */
function rangeOf(entry: string): { family: Family; first: bigint; last: bigint } | undefined {
  const [address = "", prefixText, ...rest] = entry.split("/");
  if (rest.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) || isIP(address) === 0 || !ipaddr.isValid(address)) return undefined;
  let ip = ipaddr.parse(address);
  let family: Family = ip.kind() === "ipv4" ? "IPv4" : "IPv6";
  let prefix = Number(prefixText ?? bits[family]);
  if (prefix > bits[family]) return undefined;
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress() && prefix >= 96) [ip, family, prefix] = [ip.toIPv4Address(), "IPv4", prefix - 96];
  const value = ip.toByteArray().reduce((total, byte) => (total << 8n) | BigInt(byte), 0n);
  const size = 1n << BigInt(bits[family] - prefix);
  const first = value - (value % size);
  return { family, first, last: first + size - 1n };
}

/** How many addresses of each family the ranges cover together (overlaps counted once), and the family's size. */
function coverage(ranges: { family: Family; first: bigint; last: bigint }[]): Record<Family, { covered: bigint; size: bigint }> {
  const counts = { IPv4: { covered: 0n, size: 1n << BigInt(bits.IPv4) }, IPv6: { covered: 0n, size: 1n << BigInt(bits.IPv6) } };
  for (const family of ["IPv4", "IPv6"] as const) {
    const sorted = ranges.filter((range) => range.family === family).sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
    let end = -1n;
    for (const { first, last } of sorted) {
      if (last <= end) continue;
      counts[family].covered += last - (first > end ? first : end + 1n) + 1n;
      end = last;
    }
  }
  return counts;
}

/**
 * What is wrong with a trust setting, or undefined when it may be used: `true` or `*`, a hop
 * count above `maxTrustedHops`, an entry that is neither an address, a CIDR nor one of
 * Express's names, or a list that trusts more than `maxTrustedShare` of IPv4 or IPv6.
 */
export function trustProxyProblem(trust: unknown): string | undefined {
  if (trust === false || trust === undefined) return undefined;
  if (trust === true) return "true would let any client choose its address; give a hop count or the proxies' addresses/CIDRs";
  if (typeof trust === "number") {
    if (!Number.isInteger(trust) || trust < 0) return `a hop count must be a whole number, not ${trust}`;
    if (trust > maxTrustedHops)
      return `a hop count of ${trust} is above ${maxTrustedHops}: it trusts hops the client writes itself, so any client could choose its address; give the number of proxies in front of the server`;
    return undefined;
  }
  // An empty entry ("10.0.0.1,") is refused with the others: Express (proxy-addr) would refuse it anyway.
  const entries = (typeof trust === "string" ? trust.split(",") : Array.isArray(trust) ? trust.map(String) : [String(trust)]).map((entry) => entry.trim());
  if (entries.some((entry) => /^(true|on|\*)$/i.test(entry)))
    return `"${entries.join(",")}" would let any client choose its address; give a hop count or the proxies' addresses/CIDRs`;
  const cidrs = entries.flatMap((entry) => namedRanges[entry] ?? [entry]);
  const bad = cidrs.filter((entry) => rangeOf(entry) === undefined);
  if (bad.length > 0) return `not an address, CIDR or hop count: ${bad.map((entry) => (entry === "" ? '""' : entry)).join(", ")}`;
  const counts = coverage(cidrs.map((entry) => rangeOf(entry)!));
  for (const family of ["IPv4", "IPv6"] as const) {
    const { covered, size } = counts[family];
    if (covered >= size) return `${entries.join(",")} covers all of ${family}: any client could choose its address; name only the proxies in front of the server`;
    // Compared as whole counts: one address over the bound is over it (a share in a double, or
    // in millionths, would round it away).
    if (covered * maxTrustedDivisor > size) {
      const percent = Number((covered * 1_000_000n) / size) / 10_000;
      return `${entries.join(",")} covers ${percent.toFixed(1)}% of ${family} (at most 1/64 is taken): clients at those addresses could choose theirs; name only the proxies in front of the server`;
    }
  }
  return undefined;
}

/** TRUST_PROXY's value: unset/`off`/`0` → false, digits → a hop count, else a list of addresses or CIDRs; refused as `trustProxyProblem` says. */
export function trustProxyFromEnv(raw: string | undefined): TrustProxy {
  if (raw === undefined || /^(|off|false|0)$/i.test(raw.trim())) return false;
  const trust: TrustProxy = /^\d+$/.test(raw.trim())
    ? Number(raw.trim())
    : raw
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "");
  const problem = /^(true|on|\*)$/i.test(raw.trim()) ? `"${raw}" would let any client choose its address` : trustProxyProblem(trust);
  if (problem) throw new Error(`TRUST_PROXY must be a hop count (at most ${maxTrustedHops}) or the proxies' addresses/CIDRs: ${problem}`);
  return trust;
}
