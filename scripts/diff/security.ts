// Security and servers. A client holds the credentials one of the base's security
// alternatives asks for: removing that alternative, or changing how a scheme is sent,
// locks it out; a new alternative does not. A client calls one of the base's server URLs.
import equal from "fast-deep-equal";
import { child, type Loc } from "./document.js";
import type { Context } from "./schemas.js";

/** The fields of a security scheme that decide what a client sends. */
const wireFields = ["type", "scheme", "in", "name", "flows", "openIdConnectUrl"];

/** One key per alternative: its schemes with their scopes, sorted (`{}` is anonymous). */
function alternatives(requirements: unknown): Map<string, number> {
  const list = Array.isArray(requirements) && requirements.length > 0 ? requirements : [{}];
  return new Map(
    list.map((req: Record<string, string[]>, i) => [
      Object.keys(req).sort().map((name) => `${name}[${[...(req[name] ?? [])].sort().join(",")}]`).join(" + ") || "anonymous",
      i,
    ]),
  );
}

export function compareOperationSecurity(ctx: Context, b: Loc, h: Loc): void {
  const effective = (op: Loc, doc: Record<string, unknown>): Loc =>
    op.node.security !== undefined ? child(op, "security") : { node: doc.security, ptr: "/security" };
  const bs = effective(b, ctx.base);
  const hs = effective(h, ctx.head);
  const base = alternatives(bs.node);
  const head = alternatives(hs.node);
  for (const [key, i] of base) {
    if (!head.has(key)) ctx.out.add("security-requirement-removed", `security alternative ${key} removed`, `${bs.ptr}/${i}`, hs.ptr);
  }
  for (const [key, i] of head) {
    if (!base.has(key)) ctx.out.add("security-requirement-added", `security alternative ${key} added`, bs.ptr, `${hs.ptr}/${i}`);
  }
}

export function compareSecuritySchemes(ctx: Context): void {
  const at = "/components/securitySchemes";
  const base = ctx.base.components?.securitySchemes ?? {};
  const head = ctx.head.components?.securitySchemes ?? {};
  const loc = (doc: unknown, name: string) => child({ node: doc, ptr: at }, name).ptr;
  for (const name of Object.keys(base)) {
    if (!(name in head)) {
      ctx.out.add("security-scheme-removed", `security scheme ${name} removed`, loc(base, name), at);
      continue;
    }
    for (const field of wireFields) {
      if (!equal(base[name][field], head[name][field])) {
        ctx.out.add("security-scheme-changed", `security scheme ${name}: \`${field}\` ${JSON.stringify(base[name][field])} became ${JSON.stringify(head[name][field])}`, `${loc(base, name)}/${field}`, `${loc(head, name)}/${field}`);
      }
    }
  }
  for (const name of Object.keys(head)) {
    if (!(name in base)) ctx.out.add("security-scheme-added", `security scheme ${name} added`, at, loc(head, name));
  }
}

export function compareServers(ctx: Context): void {
  const urls = (doc: { servers?: { url: string }[] }) => (doc.servers ?? []).map((s) => s.url);
  const base = urls(ctx.base);
  const head = urls(ctx.head);
  base.forEach((url, i) => {
    if (!head.includes(url)) ctx.out.add("server-removed", `server ${url} removed`, `/servers/${i}`, "/servers");
  });
  head.forEach((url, i) => {
    if (!base.includes(url)) ctx.out.add("server-added", `server ${url} added`, "/servers", `/servers/${i}`);
  });
}
