// Typed results (server/contract-layer/contract.ts) over the gadgets test document
// (test/express-entry/gadgets/): a handler returns one of its operation's documented 2xx
// responses with that response's body and headers. Each `@ts-expect-error` names the one
// mistake on the line below it; an unused one fails the run.
import { describe, expectTypeOf, test } from "vitest";
import type { Handlers, OperationHandler, OperationResult, SuccessStatus } from "../../server/contract-layer/index.js";
import type { components, operations } from "../express-entry/gadgets/schema.js";

type Ops = operations;
type Gadget = components["schemas"]["Gadget"];
declare const gadget: Gadget;

describe("the statuses a handler may answer", () => {
  test("are the operation's documented 2xx ones", () => {
    expectTypeOf<SuccessStatus<Ops["createGadget"]>>().toEqualTypeOf<200 | 201>();
    expectTypeOf<SuccessStatus<Ops["deleteGadget"]>>().toEqualTypeOf<204>();
  });

  test("a status the operation does not document does not compile", () => {
    // @ts-expect-error DELETE /gadgets/{id} documents 204, not 200
    const wrongStatus: OperationHandler<Ops["deleteGadget"]> = () => ({ status: 200 });
    // @ts-expect-error createGadget documents 200 and 201, not 202
    const accepted: OperationHandler<Ops["createGadget"]> = () => ({ status: 202, body: gadget, headers: { Location: "/x" } });
    return [wrongStatus, accepted];
  });
});

describe("bodies", () => {
  test("a 204 takes none", () => {
    const ok: OperationHandler<Ops["deleteGadget"]> = () => ({ status: 204 });
    // @ts-expect-error a 204 has no body
    const withBody: OperationHandler<Ops["deleteGadget"]> = () => ({ status: 204, body: gadget });
    return [ok, withBody];
  });

  test("a 201 needs its documented body", () => {
    // @ts-expect-error the 201 of createGadget has a Gadget body
    const noBody: OperationHandler<Ops["createGadget"]> = () => ({ status: 201, headers: { Location: "/v2/gadgets/g2" } });
    // @ts-expect-error `id` of a Gadget is a string
    const wrongBody: OperationHandler<Ops["createGadget"]> = () => ({ status: 201, body: { id: 2, name: "Fan" }, headers: { Location: "/x" } });
    return [noBody, wrongBody];
  });

  test("a text/plain 200 takes a string", () => {
    expectTypeOf<Extract<OperationResult<Ops["readGadgetLabel"]>, { status: 200 }>["body"]>().toEqualTypeOf<string>();
    // @ts-expect-error the label is text, not an object
    const object: OperationHandler<Ops["readGadgetLabel"]> = () => ({ status: 200, body: gadget });
    return [object];
  });
});

describe("headers", () => {
  test("a required header must be returned, typed as documented", () => {
    const ok: OperationHandler<Ops["createGadget"]> = () => ({ status: 201, body: gadget, headers: { Location: "/v2/gadgets/g2" } });
    // @ts-expect-error the 201 of createGadget requires Location
    const missing: OperationHandler<Ops["createGadget"]> = () => ({ status: 201, body: gadget });
    // @ts-expect-error Location is a string
    const wrongType: OperationHandler<Ops["createGadget"]> = () => ({ status: 201, body: gadget, headers: { Location: 1 } });
    // @ts-expect-error the 200 of readGadget requires X-Revision, so its body cannot be returned bare
    const bare: OperationHandler<Ops["readGadget"]> = () => gadget;
    return [ok, missing, wrongType, bare];
  });

  test("the layer's own headers are never required of a handler", () => {
    // X-Request-Id is documented as required on readGadget's 200; the layer sets it.
    const ok: OperationHandler<Ops["readGadget"]> = () => ({ status: 200, body: gadget, headers: { "X-Revision": 3 } });
    return [ok];
  });

  test("a 200 without required headers may be returned bare", () => {
    const bare: OperationHandler<Ops["createGadget"]> = () => gadget;
    return [bare];
  });
});

describe("a handler map over another document", () => {
  test("covers that document's operations", () => {
    expectTypeOf<keyof Handlers<Ops>>().toEqualTypeOf<"createGadget" | "readGadget" | "deleteGadget" | "readGadgetLabel">();
  });
});
