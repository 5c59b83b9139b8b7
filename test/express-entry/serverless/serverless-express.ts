// src/lambda.ts: the API as an AWS Lambda function behind API Gateway (REST API or HTTP API), through @codegenie/serverless-express
import { configure as serverlessExpress } from "@codegenie/serverless-express"; // its default import has no call signature under NodeNext
import { createContractApp, ready } from "@authsvc/app-api-server/express";
import { db } from "./db.js"; // the service's own data access
import { handlers } from "./handlers/index.js"; // written by `npx authsvc-api stubs src/handlers`

const api = createContractApp({
  handlers,
  authenticate: {
    authenticateBearer: async (apiKey) => db.applicationByKey(apiKey),
    authenticateKeyPair: async (apiKey, apiSecret) => db.applicationByPair(apiKey, apiSecret),
  },
  unmatched: "problem", // the function serves only the API: any other path is the 404 problem
});
await ready(api); // during the function's init: the first invoke finds every validator loaded
export const handler = serverlessExpress({ app: api });
