import { createApiClient } from "@authsvc/app-api-contract";

const api = createApiClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const { data, error } = await api.POST("/custom/emails", {
  body: {
    type: "SES",
    email_from: "no-reply@acme-shop.example",
    email_admin: "admin@acme-shop.example",
    email_reply: "support@acme-shop.example",
    from_name: "Acme Shop",
    auth: {
      region: "eu-west-1",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    },
  },
});
if (error) throw new Error(`${error.code}: ${error.detail}`);
console.log(data.result.id, data.result.type, data.result.region, data.result.is_verified);
