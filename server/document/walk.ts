// What every reader of the bundled OpenAPI document shares (the server, the conformance suite,
// the generators, the tests): the eight methods a path item may hold, `$ref` resolution, and
// the walk over every operation. Written once, so no reader skips a method or follows a
// reference differently. Framework-free and untyped over the document (any JSON object), so
// a script can use it on a document it has just parsed.

/** Every method OpenAPI allows on a path item (the order the generated files list operations in). */
export const httpMethods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

export type HttpMethod = (typeof httpMethods)[number];

/**
 * The node a local reference (`#/components/…`) names, its pointer segments unescaped (`~1`
 * is `/`, `~0` is `~`); throws for a reference elsewhere or to nothing. Only the document's
 * own members are followed: `#/__proto__/…` or `#/paths/constructor` names nothing.
 */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`Cannot resolve $ref ${ref}: only local references are followed`);
  const target = ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === "object" && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined),
      document,
    );
  if (target === undefined) throw new Error(`Cannot resolve $ref ${ref}: dangling`);
  return target;
}

/** `node` with its `$ref`s followed until a node that is not a reference; throws on a cycle, a reference elsewhere or to nothing. */
export function deref<T = any>(document: unknown, node: unknown): T {
  let current = node;
  const seen = new Set<string>();
  while (current && typeof current === "object" && typeof (current as { $ref?: unknown }).$ref === "string") {
    const ref = (current as { $ref: string }).$ref;
    if (seen.has(ref)) throw new Error(`Cannot resolve $ref ${ref}: it refers to itself`);
    seen.add(ref);
    current = resolvePointer(document, ref);
  }
  return current as T;
}

/** One operation of a document: its path, method and operation object. */
export interface OperationEntry<Operation = any> {
  path: string;
  method: HttpMethod;
  operation: Operation;
}

/** Every operation of `document`, in document order (paths, then each path's methods in httpMethods order); path items behind a `$ref` followed. */
export function operationEntries<Operation = any>(document: { paths?: Record<string, unknown> }): OperationEntry<Operation>[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) => {
    const pathItem = deref<Record<string, Operation | undefined>>(document, item);
    return httpMethods.flatMap((method) => (pathItem[method] === undefined ? [] : [{ path, method, operation: pathItem[method]! }]));
  });
}

/** The `$id` under which a document's components are registered with a JSON Schema validator (absoluteRefs). */
export const schemaBase = "urn:authsvc:openapi";

/** `node` with every local reference (`#/components/…`) made absolute under schemaBase, so a schema compiles on its own. */
export function absoluteRefs(node: any): any {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${schemaBase}${v}` : absoluteRefs(v)]),
  );
}
