// What a handler receives beside its validated input: the request headers, read-only, and
// the host's context typed by the app's `context` option.
import { describe, expectTypeOf, test } from "vitest";
import type { IncomingHttpHeaders } from "node:http";
import type { operations } from "../../generated/schema.js";
import { createContractApp, type Handler, type HandlerInput, type Handlers } from "../../server/contract-layer/index.js";

describe("a handler's headers and context", () => {
  test("headers are Node's, read-only; context is the app's Context type", () => {
    expectTypeOf<HandlerInput<"readWidget">["headers"]>().toEqualTypeOf<Readonly<IncomingHttpHeaders>>();
    expectTypeOf<HandlerInput<"readWidget", { tenant: string }>["context"]>().toEqualTypeOf<{ tenant: string }>();
    expectTypeOf<HandlerInput<"readWidget">["context"]>().toEqualTypeOf<undefined>();
    const handler: Handler<"readWidget", { tenant: string }> = ({ headers, context }) => {
      // @ts-expect-error the headers are read-only
      headers["x-trace"] = "changed";
      // @ts-expect-error the context has no such field
      void context.user;
      throw new Error(context.tenant);
    };
    return handler;
  });

  test("the context option must build the Context the handlers take", () => {
    const build = (handlers: Handlers<operations, { tenant: string }>) => {
      const ok = createContractApp<operations, { tenant: string }>({ handlers, authenticate: undefined as never, context: () => ({ tenant: "acme" }) });
      // @ts-expect-error tenant must be a string
      const wrong = createContractApp<operations, { tenant: string }>({ handlers, authenticate: undefined as never, context: () => ({ tenant: 1 }) });
      return [ok, wrong];
    };
    return build;
  });
});
