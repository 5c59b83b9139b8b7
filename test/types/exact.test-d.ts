// exact() (server/contract-layer/exact.ts): a handler output with a property the document does not
// declare fails to compile, at the top, inside `result`, inside list items and in a typed
// result's body, whether written as a literal or built from a wider variable; a correct
// output compiles and keeps its type. Where TypeScript cannot tell (a value already typed
// as the schema's type) is shown too. Each `@ts-expect-error` names the one mistake.
import { describe, expectTypeOf, test } from "vitest";
import type { components } from "../../generated/schema.js";
import { exact, exactOutput, type Handler, type HandlerOutput } from "../../server/contract-layer/index.js";
import type { operations as gadgetOperations } from "../express-entry/gadgets/schema.js";

type S = components["schemas"];
declare const widget: S["Widget"];
declare const activity: S["Activity"];
declare const meta: S["PageMeta"];
const type = "api.application.widget.read" as const;

describe("exact", () => {
  test("a declared output compiles and keeps the operation's output type", () => {
    const body: Handler<"readWidget"> = () => exact("readWidget", { type, result: widget });
    const result: Handler<"readWidget"> = () => exact("readWidget", { status: 200, body: { type, result: widget } });
    const list: Handler<"findUserActivity"> = () => exact("findUserActivity", { type: "api.application.user.activity.find", result: [activity], meta });
    expectTypeOf(exact("readWidget", { type, result: widget })).toEqualTypeOf<HandlerOutput<"readWidget">>();
    return [body, result, list];
  });

  test("an undeclared property does not compile, wherever it is", () => {
    const row = { ...widget, internal_note: "x" };
    // @ts-expect-error internal_note: a wider variable inside result
    const fromVariable: Handler<"readWidget"> = () => exact("readWidget", { type, result: row });
    // @ts-expect-error shade: a literal inside result
    const inResult: Handler<"readWidget"> = () => exact("readWidget", { type, result: { ...widget, shade: "red" } });
    // @ts-expect-error extra: at the top of the envelope
    const onTop: Handler<"readWidget"> = () => exact("readWidget", { type, result: widget, extra: 1 });
    const rows = [{ ...activity, secret: 1 }];
    // @ts-expect-error secret: inside the items of a list
    const inItems: Handler<"findUserActivity"> = () => exact("findUserActivity", { type: "api.application.user.activity.find", result: rows, meta });
    // @ts-expect-error internal_note: in a typed result's body
    const inTypedResult: Handler<"readWidget"> = () => exact("readWidget", { status: 200, body: { type, result: row } });
    return [fromVariable, inResult, onTop, inItems, inTypedResult];
  });

  test("another document's operations through exactOutput", () => {
    const readGadget = exactOutput<gadgetOperations["readGadget"]>();
    const ok = readGadget({ status: 200, body: { id: "g1", name: "Lamp" }, headers: { "X-Revision": 1 } });
    // @ts-expect-error colour: not a Gadget property
    const extra = readGadget({ status: 200, body: { id: "g1", name: "Lamp", colour: "red" }, headers: { "X-Revision": 1 } });
    return [ok, extra];
  });

  test("where it cannot tell: a value already typed as the schema's type", () => {
    const row = { ...widget, internal_note: "x" };
    // The cast hides internal_note from the type: only response validation sees it, at run time.
    const cast: Handler<"readWidget"> = () => exact("readWidget", { type, result: row as S["Widget"] });
    return cast;
  });
});
