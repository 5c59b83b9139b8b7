// Requests for every operation, derived from the document: valid ones (parameters and body
// from the schemas, path ids mostly the demo's so that 200s happen) and mutated ones (a
// required field dropped, a wrong type, a number out of range, an extra field, an oversize
// string). The suite checks what the server answers against the document.
import fc from "fast-check";
import type { OperationId } from "../../generated/operations.js";
import { appA, recordsOfA } from "../support/demo.js";
import { credentialsFor } from "../support/requests.js";
import { operation } from "./document.js";
import { validArbitrary, type Hints, type Options } from "./schema-arbitrary.js";

/** Demo records of application A, per operation with an `{id}`, so that valid requests can hit 200. */
const knownIds: Partial<Record<OperationId, string[]>> = {
  readWidget: recordsOfA.widgets,
  findUserActivity: recordsOfA.users,
  updateSmsProvider: recordsOfA.smsProviders,
  readWebhook: recordsOfA.webhooks,
  findWebhookHistory: recordsOfA.webhooks,
};

const nowSeconds = Math.floor(Date.now() / 1000);
/** Prefix of generated e-mail auth secrets, distinctive enough to scan logs and answers for. */
export const secretMark = "fuzz-secret-";
const markedSecret = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 12, maxLength: 32 }).map((s) => secretMark + s);
/** Body fields steered towards the demo data, so rule checks pass as often as they fail. */
const hints: Hints = {
  receivers: fc.uniqueArray(fc.constantFrom(...recordsOfA.users.flatMap((id, i) => [id, recordsOfA.userEmails[i]!])), { minLength: 1, maxLength: 3 }),
  send_at: fc.oneof(fc.constant("now"), fc.integer({ min: nowSeconds + 3600, max: nowSeconds + 365 * 86400 })),
  // Half marked (scanned for), half anything the schema allows.
  api_key: fc.oneof(markedSecret, fc.string({ minLength: 1, maxLength: 256 })),
  secretAccessKey: fc.oneof(markedSecret, fc.string({ minLength: 1, maxLength: 256 })),
};

export interface FuzzRequest {
  operationId: OperationId;
  /** `valid`, or the mutation applied. */
  kind: string;
  method: string;
  /** Path below `/v1`, ids percent-encoded. */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: unknown;
}

/** Valid requests of one operation; with `edges`, of values at the document's edges (schema-arbitrary.ts). */
export function validRequest(id: OperationId, options: Options = {}): fc.Arbitrary<FuzzRequest> {
  const op = operation(id);
  const pathParam = op.parameters.find((p) => p.in === "path");
  const idArb = pathParam
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...(knownIds[id] ?? ["unused"])) },
        { weight: 1, arbitrary: validArbitrary(pathParam.schema, {}, options) as fc.Arbitrary<string> },
      )
    : fc.constant("");
  const queryModel = Object.fromEntries(op.parameters.filter((p) => p.in === "query").map((p) => [p.name, validArbitrary(p.schema, {}, options)]));
  const queryArb = fc.record(queryModel, { requiredKeys: [] });
  const bodyArb = op.bodySchema ? validArbitrary(op.bodySchema, hints, options) : fc.constant(undefined);
  return fc.record({ pathId: idArb, query: queryArb, body: bodyArb }).map(({ pathId, query, body }) => ({
    operationId: id,
    kind: "valid",
    method: op.method.toUpperCase(),
    path: op.path.replace("{id}", encodeURIComponent(pathId)),
    query: Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
    headers: { ...credentialsFor(id, appA), ...(op.bodySchema ? { "content-type": "application/json" } : {}) },
    body,
  }));
}

const mutationKinds = ["drop-field", "wrong-type", "out-of-range", "extra-field", "oversize-string"] as const;
const wrongValues: unknown[] = [42, -1, "text", "", true, null, [], {}, [1, "a"], { a: 1 }, 1.5];

/** Valid requests with one mutation applied; most become invalid, some stay valid. */
export function mutatedRequest(id: OperationId): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(validRequest(id), fc.constantFrom(...mutationKinds), fc.nat(), fc.constantFrom(...wrongValues), fc.integer({ min: 1, max: 6000 }))
    .map(([request, kind, pick, wrong, size]) => mutate(structuredClone(request), kind, pick, wrong, size));
}

type Slot = { parent: any; key: string | number; value: unknown };

/** Every value inside a JSON body, with where it sits. */
function slots(value: unknown, out: Slot[] = []): Slot[] {
  if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      out.push({ parent: value, key: Array.isArray(value) ? Number(key) : key, value: child });
      slots(child, out);
    }
  }
  return out;
}

function mutate(r: FuzzRequest, kind: (typeof mutationKinds)[number], pick: number, wrong: unknown, size: number): FuzzRequest {
  r.kind = kind;
  const bodySlots = slots(r.body);
  const inBody = r.body !== undefined && (r.query.length === 0 || pick % 2 === 0);
  const at = <T>(list: T[]) => list[pick % list.length];
  switch (kind) {
    case "drop-field": {
      const objects = [r.body, ...bodySlots.map((s) => s.value)].filter((v) => v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0);
      const target = at(objects) as Record<string, unknown> | undefined;
      if (target) delete target[at(Object.keys(target))!];
      else delete r.headers[at(Object.keys(r.headers))!]; // no body: drop a credential header
      return r;
    }
    case "wrong-type": {
      const slot = at(bodySlots.filter((s) => typeof s.value !== typeof wrong));
      if (inBody && slot) slot.parent[slot.key] = wrong;
      else if (r.body !== undefined && !Array.isArray(wrong) && bodySlots.length === 0) r.body = wrong;
      else r.query.push([at(["limit", "page", "start_date"])!, typeof wrong === "string" ? wrong || "ten" : JSON.stringify(wrong)]);
      return r;
    }
    case "out-of-range": {
      const huge = at([-1, 0, 101, 1e10, 2 ** 53 + 2, 1e308, -0.5, 12.5])!;
      const slot = at(bodySlots.filter((s) => typeof s.value === "number"));
      if (inBody && slot) slot.parent[slot.key] = huge;
      else r.query.push([at(["limit", "page", "start_date", "end_date"])!, String(huge)]);
      return r;
    }
    case "extra-field": {
      const objects = [r.body, ...bodySlots.map((s) => s.value)].filter((v) => v && typeof v === "object" && !Array.isArray(v));
      const target = at(objects) as Record<string, unknown> | undefined;
      if (inBody && target) target[`extra_${pick % 97}`] = wrong;
      else r.query.push([`extra_${pick % 97}`, "1"]);
      return r;
    }
    case "oversize-string": {
      const long = "x".repeat(size + 64);
      const slot = at(bodySlots.filter((s) => typeof s.value === "string"));
      if (inBody && slot) slot.parent[slot.key] = long;
      else if (r.path.match(/\/[^/]+_[^/]+$/) && pick % 3 === 0) r.path = r.path.replace(/[^/]+$/, long);
      else r.query.push([at(["region", "device_version", "status", "email"])!, long]);
      return r;
    }
  }
}

export { operation };
