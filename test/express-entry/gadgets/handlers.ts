// Handlers of the gadgets test document (test/express-entry/gadgets/openapi.json): one operation
// per kind of success the layer sends (201 with Location, 200 with a required header, 204
// without a body, a text/plain 200), over a small map.
import type { Handlers } from "../../../server/contract-layer/index.js";
import type { operations } from "./schema.js";

export function gadgetHandlers(gadgets = new Map<string, string>([["g1", "Lamp"]])): Handlers<operations> {
  return {
    createGadget: ({ body }) => {
      const existing = [...gadgets].find(([, name]) => name === body.name);
      if (existing) return { status: 200, body: { id: existing[0], name: existing[1] } };
      const id = `g${gadgets.size + 1}`;
      gadgets.set(id, body.name);
      return { status: 201, body: { id, name: body.name }, headers: { Location: `/v2/gadgets/${id}` } };
    },
    readGadget: ({ path }) => ({ status: 200, body: { id: path.id, name: gadgets.get(path.id) ?? "?" }, headers: { "X-Revision": 3 } }),
    deleteGadget: ({ path }) => {
      gadgets.delete(path.id);
      return { status: 204 };
    },
    readGadgetLabel: ({ path }) => ({ status: 200, body: `${path.id}: ${gadgets.get(path.id) ?? "?"}` }),
  };
}
