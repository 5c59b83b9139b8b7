// Compares the operations of two documents: presence, operationId, deprecation, parameters,
// request bodies, responses and their headers, each schema in the direction data flows.
import equal from "fast-deep-equal";
import { child, deref, isObject, type Loc, type Node } from "./document.js";
import { compareSchemas, type Context } from "./schemas.js";
import { compareOperationSecurity } from "./security.js";

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

interface Operation {
  /** `GET /webhooks/{id}` */
  label: string;
  loc: Loc;
  pathItem: Loc;
}

/** Operations keyed by method and path template with parameter names blanked (`/webhooks/{}`). */
function operationsOf(doc: Node): Map<string, Operation> {
  const found = new Map<string, Operation>();
  const paths: Loc = { node: doc.paths ?? {}, ptr: "/paths" };
  for (const path of Object.keys(paths.node)) {
    const pathItem = deref(doc, child(paths, path));
    for (const method of methods) {
      const loc = child(pathItem, method);
      if (!isObject(loc.node)) continue;
      const label = `${method.toUpperCase()} ${path}`;
      found.set(`${method} ${path.replace(/\{[^}]*\}/g, "{}")}`, { label, loc, pathItem });
    }
  }
  return found;
}

export function compareOperations(ctx: Context): void {
  const base = operationsOf(ctx.base);
  const head = operationsOf(ctx.head);
  for (const [key, b] of base) {
    const h = head.get(key);
    ctx.out.operation = b.label;
    ctx.seen = new Set();
    if (!h) ctx.out.add("operation-removed", `${b.label} removed`, b.loc.ptr, "/paths");
    else compareOperation(ctx, b, h);
  }
  for (const [key, h] of head) {
    ctx.out.operation = h.label;
    if (!base.has(key)) ctx.out.add("operation-added", `${h.label} added`, "/paths", h.loc.ptr);
  }
  ctx.out.operation = undefined;
}

function compareOperation(ctx: Context, b: Operation, h: Operation): void {
  const out = ctx.out;
  const bo = b.loc.node;
  const ho = h.loc.node;
  if (bo.operationId !== ho.operationId) {
    out.add("operation-id-changed", `operationId ${bo.operationId} became ${ho.operationId}`, child(b.loc, "operationId").ptr, child(h.loc, "operationId").ptr);
  }
  if (!bo.deprecated && ho.deprecated) out.add("operation-deprecated", `${h.label} deprecated`, b.loc.ptr, child(h.loc, "deprecated").ptr);
  if (bo.deprecated && !ho.deprecated) out.add("operation-undeprecated", `${h.label} no longer deprecated`, child(b.loc, "deprecated").ptr, h.loc.ptr);
  if (bo["x-sunset"] !== ho["x-sunset"] && ho.deprecated) {
    out.add("operation-sunset-changed", `sunset ${bo["x-sunset"] ?? "none"} became ${ho["x-sunset"] ?? "none"}`, b.loc.ptr, child(h.loc, "x-sunset").ptr);
  }
  compareOperationSecurity(ctx, b.loc, h.loc);
  compareParameters(ctx, b, h);
  compareRequestBodies(ctx, child(b.loc, "requestBody"), child(h.loc, "requestBody"));
  compareResponses(ctx, child(b.loc, "responses"), child(h.loc, "responses"));
}

/** Path parameters are keyed by their place in the template, so renaming `{id}` is no change. */
function parametersOf(doc: Node, op: Operation): Map<string, Loc> {
  const found = new Map<string, Loc>();
  const path = op.label.split(" ")[1]!;
  const places = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const holder of [op.pathItem, op.loc]) {
    const list = child(holder, "parameters");
    (Array.isArray(list.node) ? list.node : []).forEach((_: Node, i: number) => {
      const loc = deref(doc, child(list, i));
      const p = loc.node;
      const name = p.in === "header" ? String(p.name).toLowerCase() : p.name;
      found.set(p.in === "path" ? `path #${places.indexOf(p.name)}` : `${p.in} ${name}`, loc);
    });
  }
  return found;
}

function compareParameters(ctx: Context, bOp: Operation, hOp: Operation): void {
  const out = ctx.out;
  const base = parametersOf(ctx.base, bOp);
  const head = parametersOf(ctx.head, hOp);
  const name = (p: Node) => `${p.in} parameter \`${p.name}\``;
  for (const [key, b] of base) {
    const h = head.get(key);
    if (!h) {
      out.add("request-parameter-removed", `${name(b.node)} removed`, b.ptr, child(hOp.loc, "parameters").ptr);
      continue;
    }
    const bp = b.node;
    const hp = h.node;
    if (!bp.required && hp.required) out.add("request-parameter-became-required", `${name(hp)} became required`, b.ptr, child(h, "required").ptr);
    if (bp.required && !hp.required) out.add("request-parameter-became-optional", `${name(hp)} became optional`, child(b, "required").ptr, h.ptr);
    if (!bp.deprecated && hp.deprecated) out.add("request-parameter-deprecated", `${name(hp)} deprecated`, b.ptr, child(h, "deprecated").ptr);
    for (const keyword of ["style", "explode", "allowReserved", "content"]) {
      if (keyword === "content" ? !equal(bp.content, hp.content) : bp[keyword] !== hp[keyword]) {
        out.add("request-parameter-serialization-changed", `${name(hp)}: \`${keyword}\` changed`, child(b, keyword).ptr, child(h, keyword).ptr);
      }
    }
    compareSchemas(ctx, "request", child(b, "schema"), child(h, "schema"), `${name(hp)}`);
  }
  for (const [key, h] of head) {
    if (base.has(key)) continue;
    const hp = h.node;
    const rule = hp.required ? "request-required-parameter-added" : "request-optional-parameter-added";
    out.add(rule, `${hp.required ? "required" : "optional"} ${name(hp)} added`, child(bOp.loc, "parameters").ptr, h.ptr);
  }
}

function compareRequestBodies(ctx: Context, bLoc: Loc, hLoc: Loc): void {
  const out = ctx.out;
  if (bLoc.node === undefined && hLoc.node === undefined) return;
  if (bLoc.node === undefined) {
    const h = deref(ctx.head, hLoc);
    out.add(h.node.required ? "request-body-added-required" : "request-body-added", `request body added${h.node.required ? " (required)" : ""}`, bLoc.ptr, h.ptr);
    return;
  }
  const b = deref(ctx.base, bLoc);
  if (hLoc.node === undefined) return out.add("request-body-removed", "request body removed", b.ptr, hLoc.ptr);
  const h = deref(ctx.head, hLoc);
  if (!b.node.required && h.node.required) out.add("request-body-became-required", "request body became required", b.ptr, child(h, "required").ptr);
  if (b.node.required && !h.node.required) out.add("request-body-became-optional", "request body became optional", child(b, "required").ptr, h.ptr);
  compareContent(ctx, "request", child(b, "content"), child(h, "content"), "request body");
}

function compareContent(ctx: Context, dir: "request" | "response", b: Loc, h: Loc, label: string): void {
  const bTypes = Object.keys(b.node ?? {});
  const hTypes = Object.keys(h.node ?? {});
  for (const type of bTypes) {
    if (!hTypes.includes(type)) ctx.out.add(`${dir}-media-type-removed`, `${label}: media type ${type} removed`, child(b, type).ptr, h.ptr);
    else compareSchemas(ctx, dir, child(b, type, "schema"), child(h, type, "schema"), label);
  }
  for (const type of hTypes) {
    if (!bTypes.includes(type)) ctx.out.add(`${dir}-media-type-added`, `${label}: media type ${type} added`, b.ptr, child(h, type).ptr);
  }
}

const isSuccess = (status: string) => /^2/.test(status);

function compareResponses(ctx: Context, b: Loc, h: Loc): void {
  const out = ctx.out;
  const bStatuses = Object.keys(b.node ?? {});
  const hStatuses = Object.keys(h.node ?? {});
  for (const status of bStatuses) {
    if (!hStatuses.includes(status)) {
      out.add(isSuccess(status) ? "response-success-status-removed" : "response-error-status-removed", `response ${status} removed`, child(b, status).ptr, h.ptr);
      continue;
    }
    const br = deref(ctx.base, child(b, status));
    const hr = deref(ctx.head, child(h, status));
    compareContent(ctx, "response", child(br, "content"), child(hr, "content"), `response ${status} body`);
    compareHeaders(ctx, child(br, "headers"), child(hr, "headers"), `response ${status}`);
  }
  for (const status of hStatuses) {
    if (!bStatuses.includes(status)) {
      out.add(isSuccess(status) ? "response-success-status-added" : "response-error-status-added", `response ${status} added`, b.ptr, child(h, status).ptr);
    }
  }
}

function compareHeaders(ctx: Context, b: Loc, h: Loc, label: string): void {
  const out = ctx.out;
  const byName = (loc: Loc) => new Map(Object.keys(loc.node ?? {}).map((name) => [name.toLowerCase(), child(loc, name)]));
  const base = byName(b);
  const head = byName(h);
  for (const [name, bLoc] of base) {
    const bh = deref(ctx.base, bLoc);
    const hLoc = head.get(name);
    if (!hLoc) {
      out.add(bh.node.required ? "response-required-header-removed" : "response-optional-header-removed", `${label}: header ${name} removed`, bh.ptr, h.ptr);
      continue;
    }
    const hh = deref(ctx.head, hLoc);
    if (bh.node.required && !hh.node.required) out.add("response-header-became-optional", `${label}: header ${name} became optional`, child(bh, "required").ptr, hh.ptr);
    if (!bh.node.required && hh.node.required) out.add("response-header-became-required", `${label}: header ${name} became required`, bh.ptr, child(hh, "required").ptr);
    compareSchemas(ctx, "response", child(bh, "schema"), child(hh, "schema"), `${label}: header ${name}`);
  }
  for (const [name, hLoc] of head) {
    if (!base.has(name)) out.add("response-header-added", `${label}: header ${name} added`, b.ptr, hLoc.ptr);
  }
}
