// A contract update as a service meets it after upgrading the package: the bundled document
// with a new operation (DELETE /gadgets/{id}, 204 without a body; named after the gadgets
// test document's, never one this API will add, so the tests outlive a real addition) and a
// changed one (the widget gains a required `label`, which readWidget's handler must now
// return), its version the next minor one. The stubs tests (unit and packed) rerun `authsvc-api stubs` against it.
type Json = any;

/** `3.0.0` → `3.1.0`. */
export const nextMinor = (version: string) => version.replace(/^(\d+)\.(\d+)\.\d+$/, (_, major, minor) => `${major}.${Number(minor) + 1}.0`);

/** A modified deep copy of `document` (a bundled document of this API). */
export function changedContract(document: Json): Json {
  const doc = structuredClone(document);
  doc.info.version = nextMinor(doc.info.version);
  const widget = doc.components.schemas.Widget;
  widget.properties.label = { type: "string", maxLength: 40 };
  widget.required.push("label");
  const read = doc.paths["/webhooks/{id}"].get;
  doc.paths["/gadgets/{id}"] = {};
  doc.paths["/gadgets/{id}"].delete = {
    operationId: "deleteGadget",
    summary: "Delete a gadget",
    security: read.security,
    parameters: read.parameters,
    responses: {
      "204": { description: "Deleted." },
      ...Object.fromEntries(Object.entries(read.responses).filter(([status]) => status !== "200")),
    },
  };
  return doc;
}
