// Which address the per-address failed-authentication limit counts: by default the socket's,
// whatever X-Forwarded-For says (a client can neither rotate its address nor spend a
// victim's); with `trustProxy` the address the trusted proxies report, so a client behind
// them still cannot pick its own or lock out another.
import { afterEach, describe, expect, it } from "vitest";
import { trustProxyFromEnv, trustProxyProblem } from "../../../server/middleware/trust-proxy.js";
import { createReferenceApp } from "../../../server/reference-server.js";
import { createStore } from "../../../server/store/memory.js";
import { loadSeed } from "../../../server/seed/load.js";
import { send, startHarness, type Harness } from "./harness.js";

let server: Harness | undefined;
afterEach(() => server?.close());

const failing = (s: Harness, forwardedFor: string) =>
  send(s, { method: "GET", path: "/widgets/wgt_5a3c8e1f7b92" }, { authorization: "Bearer ak_bogus", "x-forwarded-for": forwardedFor }).then((r) => r.status);

describe("trustProxy off (default)", () => {
  it("rotating X-Forwarded-For does not escape the limit", async () => {
    server = await startHarness({ rateLimit: false, failedAuthLimit: { limit: 3, windowMs: 60_000 } });
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push(await failing(server, `198.51.100.${i}`));
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });
});

describe("trustProxy: 1 (one proxy that appends the address it saw)", () => {
  it("counts the address the proxy appended: rotating the client's own entries does not escape", async () => {
    server = await startHarness({ rateLimit: false, trustProxy: 1, failedAuthLimit: { limit: 3, windowMs: 60_000 } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await failing(server, `203.0.113.${i}, 198.51.100.7`));
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it("a client naming a victim's address spends its own limit, not the victim's", async () => {
    server = await startHarness({ rateLimit: false, trustProxy: 1, failedAuthLimit: { limit: 3, windowMs: 60_000 } });
    for (let i = 0; i < 6; i++) await failing(server, "203.0.113.9, 198.51.100.7");
    expect(await failing(server, "198.51.100.7")).toBe(429);
    // The victim, reaching the proxy from 203.0.113.9: still its first failure.
    expect(await failing(server, "203.0.113.9")).toBe(401);
  });
});

describe("trustProxy as a list of proxy addresses", () => {
  it("believes X-Forwarded-For only from those proxies", async () => {
    server = await startHarness({ rateLimit: false, trustProxy: ["127.0.0.1/32"], failedAuthLimit: { limit: 2, windowMs: 60_000 } });
    expect([await failing(server, "198.51.100.1"), await failing(server, "198.51.100.1"), await failing(server, "198.51.100.1")]).toEqual([401, 401, 429]);
    expect(await failing(server, "198.51.100.2")).toBe(401);
  });

  it("ignores X-Forwarded-For from a peer that is not one of them", async () => {
    server = await startHarness({ rateLimit: false, trustProxy: ["10.0.0.0/8"], failedAuthLimit: { limit: 2, windowMs: 60_000 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await failing(server, `198.51.100.${i}`));
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["off", false],
    ["0", false],
    ["2", 2],
    ["10.0.0.0/8, 192.168.1.1", ["10.0.0.0/8", "192.168.1.1"]],
    ["loopback", ["loopback"]],
  ])("%j is %j", (raw, expected) => {
    expect(trustProxyFromEnv(raw)).toEqual(expected);
  });

  it.each(["true", "*", "proxy.example", "10.0.0.0/33", "fe80::/129"])("refuses %j", (raw) => {
    expect(() => trustProxyFromEnv(raw)).toThrow(/TRUST_PROXY/);
  });

  it.each([
    ["10", 10],
    ["loopback,uniquelocal,linklocal,100.64.0.0/10", ["loopback", "uniquelocal", "linklocal", "100.64.0.0/10"]],
    ["fc00::/7, fe80::/10", ["fc00::/7", "fe80::/10"]],
    ["::ffff:10.0.0.0/104", ["::ffff:10.0.0.0/104"]],
  ])("takes %j: every private range together is under 1/64 of its family", (raw, expected) => {
    expect(trustProxyFromEnv(raw)).toEqual(expected);
  });

  // Settings that trust every client, however the family is split (the union is measured).
  it.each([
    ["11", "a hop count of 11 is above 10"],
    ["999999", "a hop count of 999999 is above 10"],
    ["0.0.0.0/0", "0.0.0.0/0 covers all of IPv4"],
    ["0.0.0.0/1,128.0.0.0/1", "0.0.0.0/1,128.0.0.0/1 covers all of IPv4"],
    ["128.0.0.0/2, 0.0.0.0/1, 192.0.0.0/2", "128.0.0.0/2,0.0.0.0/1,192.0.0.0/2 covers all of IPv4"],
    ["::/0", "::/0 covers all of IPv6"],
    ["::/1,8000::/1", "::/1,8000::/1 covers all of IPv6"],
    ["::ffff:0:0/96", "::ffff:0:0/96 covers all of IPv4"],
    ["::ffff:0.0.0.0/97,::ffff:128.0.0.0/97", "covers all of IPv4"],
    ["0.0.0.0/2", "0.0.0.0/2 covers 25.0% of IPv4"],
    ["10.0.0.0/8,11.0.0.0/8,12.0.0.0/8,13.0.0.0/8,14.0.0.0/8", "covers 2.0% of IPv4"],
  ])("refuses %j", (raw, message) => {
    expect(() => trustProxyFromEnv(raw)).toThrow(message);
    expect(() => trustProxyFromEnv(raw)).toThrow(/^TRUST_PROXY must be a hop count \(at most 10\) or the proxies' addresses\/CIDRs: /);
  });

  it.each([999_999, ["0.0.0.0/1", "128.0.0.0/1"], "::/1, 8000::/1"])("trustProxy: %j is refused when the app is built", (trustProxy) => {
    expect(() => createReferenceApp({ store: createStore(loadSeed()), trustProxy: trustProxy as never })).toThrow(/^trustProxy: .*(above 10|covers all)/);
  });

  it("trustProxy: true is refused when the app is built", () => {
    expect(() => createReferenceApp({ store: createStore(loadSeed()), trustProxy: true as never })).toThrow(/any client/);
  });

  it("trustProxy with an empty entry is refused by this check, naming the setting, not by Express's bare `invalid IP address`", () => {
    expect(() => createReferenceApp({ store: createStore(loadSeed()), trustProxy: "10.0.0.1," })).toThrow(new Error('trustProxy: not an address, CIDR or hop count: ""'));
  });
});

// The check itself, input by input: what it refuses and the exact reason it gives. Each case
// pins a step of the address arithmetic (records/test-measurements.md, mutation survivors).
describe("trustProxyProblem", () => {
  const allIPv4 = (list: string) => `${list} covers all of IPv4: any client could choose its address; name only the proxies in front of the server`;
  const share = (list: string, percent: string, family: string) =>
    `${list} covers ${percent}% of ${family} (at most 1/64 is taken): clients at those addresses could choose theirs; name only the proxies in front of the server`;
  const advice = "would let any client choose its address; give a hop count or the proxies' addresses/CIDRs";

  it.each<[unknown, string]>([
    [true, `true ${advice}`],
    [-1, "a hop count must be a whole number, not -1"],
    [1.5, "a hop count must be a whole number, not 1.5"],
    ["10.0.0.1, *", `"10.0.0.1,*" ${advice}`],
    // Shapes that only look like a wildcard, a CIDR or a list are not addresses.
    ["10.0.0.*", "not an address, CIDR or hop count: 10.0.0.*"],
    ["*.internal", "not an address, CIDR or hop count: *.internal"],
    ["proxy-a, proxy-b", "not an address, CIDR or hop count: proxy-a, proxy-b"],
    ["10.0.0.1/32/8", "not an address, CIDR or hop count: 10.0.0.1/32/8"],
    ["10.0.0.0/", "not an address, CIDR or hop count: 10.0.0.0/"],
    ["10.0.0.0/+8", "not an address, CIDR or hop count: 10.0.0.0/+8"],
    ["10.0.0.0/8.0", "not an address, CIDR or hop count: 10.0.0.0/8.0"],
    // An address node:net takes but proxy-addr (Express) throws on at start: refused here first.
    ["::1.2.3.4", "not an address, CIDR or hop count: ::1.2.3.4"],
    // IPv4-mapped ranges are IPv4 to proxy-addr, however the address is written: with a zone
    // index (which proxy-addr accepts) or with octets of two digits.
    ["::ffff:0.0.0.0%eth0/96", allIPv4("::ffff:0.0.0.0%eth0/96")],
    ["::ffff:10.10.10.10/96", allIPv4("::ffff:10.10.10.10/96")],
    // A host address with a prefix stands for its network: these two /2 are one.
    ["0.0.0.0/2,63.255.255.255/2", share("0.0.0.0/2,63.255.255.255/2", "25.0", "IPv4")],
    // One network written three ways (`::` before, inside and with groups after it) is counted once.
    ["8000::/2,8000::0/2,8000:0::/2", share("8000::/2,8000::0/2,8000:0::/2", "25.0", "IPv6")],
  ])("%j: %s", (trust, problem) => {
    expect(trustProxyProblem(trust)).toBe(problem);
  });

  it.each<[unknown]>([
    [0],
    ["2001:db8:0:0:0:0:0:1"],
    // proxy-addr matches an IPv4 client against a mapped range only from /96 on: a /95 is IPv6.
    ["::ffff:0:0/95"],
    ["2001:db8::/96"],
    // Exactly 1/64 of IPv4 is the most taken, however its ranges are written: here one /6
    // twice, as an IPv4-mapped range and as IPv4.
    ["0.0.0.0/6"],
    ["::ffff:10.10.10.10/102,8.0.0.0/6"],
  ])("takes %j", (trust) => {
    expect(trustProxyProblem(trust)).toBeUndefined();
  });

  it("counts addresses exactly at the bound: 1/64 of IPv4 and one address more is refused", () => {
    // 4.0.0.0/6 is 1/64; 8.0.0.0/32 is the one more (a share rounded to millionths missed up to 4,294 more).
    expect(trustProxyProblem("4.0.0.0/6,8.0.0.0/32")).toBe(share("4.0.0.0/6,8.0.0.0/32", "1.6", "IPv4"));
    expect(trustProxyProblem("4.0.0.0/6,7.255.255.255/32")).toBeUndefined();
    expect(trustProxyProblem("4000::/6,4400::/128")).toBe(share("4000::/6,4400::/128", "1.6", "IPv6"));
    expect(trustProxyProblem("4000::/6")).toBeUndefined();
  });

  it("refuses Express's function form, which could trust anyone", () => {
    expect(trustProxyProblem(() => true)).toMatch(/^not an address, CIDR or hop count: /);
  });

  it("counts the union exactly: every IPv4 address but 255.255.255.255 is 100.0%, not all", () => {
    // /1 to /32 laid end to end (0.0.0.0/1, 128.0.0.0/2, …, 255.255.255.254/32), after a
    // range nested at the first one's start and one nested inside it.
    const halves = Array.from({ length: 32 }, (_, i) => {
      const start = 2 ** 32 - 2 ** (32 - i);
      return `${[24, 16, 8, 0].map((shift) => Math.floor(start / 2 ** shift) % 256).join(".")}/${i + 1}`;
    });
    const list = ["0.0.0.0/32", "10.0.0.0/8", ...halves].join(",");
    expect(trustProxyProblem(list)).toBe(share(list, "100.0", "IPv4"));
  });
});

describe("TRUST_PROXY, exactly", () => {
  const refusal = (raw: string) => {
    try {
      trustProxyFromEnv(raw);
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  };
  const prefix = "TRUST_PROXY must be a hop count (at most 10) or the proxies' addresses/CIDRs: ";

  it.each([
    [" off ", false],
    ["  ", false],
    [" 2 ", 2],
    ["10.0.0.1,", ["10.0.0.1"]],
  ])("%j is %j", (raw, expected) => {
    expect(trustProxyFromEnv(raw)).toEqual(expected);
  });

  it.each([
    [" * ", `" * " would let any client choose its address`],
    ["10.0.0.1, *", `"10.0.0.1,*" would let any client choose its address; give a hop count or the proxies' addresses/CIDRs`],
    ["*, 10.0.0.1", `"*,10.0.0.1" would let any client choose its address; give a hop count or the proxies' addresses/CIDRs`],
  ])("refuses %j: %s", (raw, problem) => {
    expect(refusal(raw)).toBe(prefix + problem);
  });
});
