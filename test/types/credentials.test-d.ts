// The credential scheme is chosen by the options, and the compiler holds the caller to it:
// a client built without an API secret has no POST /notifications (the one operation that
// takes X-Api-Key + X-Api-Secret), and a config whose secret may or may not be there is
// refused rather than silently becoming the bearer-only client.
import { describe, expectTypeOf, test } from "vitest";
import { createApiClient, type ApiClient, type ApiClientOptions, type BearerPaths, type SecretPaths } from "../../client/index.js";
import type { paths } from "../../generated/schema.js";

const baseUrl = "http://127.0.0.1:4010/v1";
const notification = { type: "SIMPLE", title: "Hi", content: "Hello", broadcast: true } as const;

describe("credential schemes", () => {
  test("the apiKey scheme covers exactly POST /notifications", () => {
    expectTypeOf<SecretPaths>().toEqualTypeOf<"/notifications">();
    expectTypeOf<keyof BearerPaths>().toEqualTypeOf<Exclude<keyof paths, "/notifications">>();
  });

  test("with apiSecret the client has every operation", () => {
    const client = createApiClient({ baseUrl, apiKey: "ak", apiSecret: "as" });
    expectTypeOf(client).toEqualTypeOf<ApiClient<paths>>();
    client.POST("/notifications", { body: notification });
  });

  test("without apiSecret POST /notifications does not compile, the eight bearer operations do", () => {
    const client = createApiClient({ baseUrl, apiKey: "ak" });
    expectTypeOf(client).toEqualTypeOf<ApiClient<BearerPaths>>();
    // @ts-expect-error POST /notifications needs the API secret
    client.POST("/notifications", { body: notification });
    client.GET("/webhooks");
    client.POST("/custom/emails", {
      body: { type: "SENDGRID", email_from: "a@acme-shop.example", email_admin: "b@acme-shop.example" },
    });
    client.PUT("/sms/providers/{id}", { params: { path: { id: "sms_2c7e9b4f1a6d" } }, body: {} });

    const explicit = createApiClient({ baseUrl, apiKey: "ak", apiSecret: undefined });
    // @ts-expect-error an explicit `undefined` secret is the bearer-only client too
    explicit.POST("/notifications", { body: notification });
  });

  test("a config that cannot say which scheme it configures does not compile", () => {
    // @ts-expect-error the API key is required for both schemes
    createApiClient({ baseUrl, apiSecret: "as" });
    // @ts-expect-error the API secret is a string
    createApiClient({ baseUrl, apiKey: "ak", apiSecret: 42 });
    // @ts-expect-error a base URL is required
    createApiClient({ apiKey: "ak", apiSecret: "as" });

    // A secret read from somewhere that may be empty must be decided on before building
    // the client; otherwise a caller would get a bearer-only client without noticing.
    const maybe = {} as ApiClientOptions;
    // @ts-expect-error `apiSecret?: string` matches neither scheme
    createApiClient(maybe);
    // Once the secret is decided on (a string here), the same config compiles.
    const decided = maybe as ApiClientOptions & { apiSecret: string };
    expectTypeOf(createApiClient({ ...decided, apiSecret: decided.apiSecret })).toEqualTypeOf<ApiClient<paths>>();
  });
});
