// IP addresses are compared in one canonical form, so `2001:0db8:0:0:0:0:0:7`, `2001:DB8::7`
// and `2001:db8::7` are the same address. The WHATWG URL parser already implements the
// RFC 5952 serialisation of IPv6 hosts; IPv4 is kept as written (the schema's ipv4 format
// has no alternative spellings).

const cache = new Map<string, string>();
const cacheLimit = 100_000;

/** The canonical form of an IPv4 or IPv6 address (unknown shapes are only lower-cased). */
export function normalizeIp(ip: string): string {
  if (!ip.includes(":")) return ip;
  let canonical = cache.get(ip);
  if (canonical === undefined) {
    try {
      canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
    } catch {
      canonical = ip.toLowerCase();
    }
    if (cache.size < cacheLimit) cache.set(ip, canonical);
  }
  return canonical;
}
