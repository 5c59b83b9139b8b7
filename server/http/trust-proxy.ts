// TRUST_PROXY of `npm start`: which proxies in front of the server to believe about the client
// address (X-Forwarded-For), which the per-address failed-authentication limit and the limits
// of requests without a key count by. Off by default: the address is the socket's, and a
// client's X-Forwarded-For is ignored, so it can neither rotate its address nor borrow a
// victim's. Behind N proxies that each append the address they saw, `N` takes the address N
// hops from the server; a comma list of addresses/CIDRs (or Express's `loopback`,
// `linklocal`, `uniquelocal`) believes exactly those proxies. "Trust everything" is not offered.

/** Express's `trust proxy` as far as it is safe: hops or the proxies' addresses, never "trust all". */
export type TrustProxy = number | string | readonly string[] | false;

/** TRUST_PROXY's value: unset/`off`/`0` → false, digits → a hop count, else a list of addresses or CIDRs. */
export function trustProxyFromEnv(raw: string | undefined): TrustProxy {
  if (raw === undefined || /^(|off|false|0)$/i.test(raw.trim())) return false;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  if (/^(true|on|\*)$/i.test(raw.trim()))
    throw new Error(`TRUST_PROXY must be a hop count or the proxies' addresses/CIDRs, not "${raw}" (any client could then choose its address)`);
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const bad = entries.filter((entry) => !/^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(entry));
  if (bad.length > 0) throw new Error(`TRUST_PROXY: not an address, CIDR or hop count: ${bad.join(", ")}`);
  return entries;
}
