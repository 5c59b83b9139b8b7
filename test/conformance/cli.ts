// `npm run conformance -- --base-url http://host/v1 --api-key … --api-secret … [--stateful]`:
// the suite the tests run, against any implementation of the API. Prints one line per
// check and a summary; exits 1 when a check fails, 2 on bad arguments.
import { parseArgs } from "node:util";
import { runChecks, summary, table, type Target } from "./suite.js";

const usage = `usage: npm run conformance -- --base-url URL --api-key KEY --api-secret SECRET [--stateful]
                               [--other-api-key KEY --other-api-secret SECRET]

  --base-url          the API's base URL, including /v1 (e.g. http://127.0.0.1:3000/v1)
  --api-key, --api-secret
                      credentials of the application holding the demo records (application A)
  --stateful          the target keeps state: also run the state checks (they change and restore
                      SMS provider order, create a notification and save the e-mail transport)
  --other-api-key, --other-api-secret
                      a second application's credentials, for the cross-application isolation checks`;

function targetFromArgs(): Target {
  const { values } = parseArgs({
    options: {
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      "api-secret": { type: "string" },
      "other-api-key": { type: "string" },
      "other-api-secret": { type: "string" },
      stateful: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const baseUrl = values["base-url"]?.replace(/\/+$/, "");
  const apiKey = values["api-key"];
  const apiSecret = values["api-secret"];
  if (!baseUrl || !apiKey || !apiSecret) throw new Error("--base-url, --api-key and --api-secret are required");
  const otherKey = values["other-api-key"];
  const otherSecret = values["other-api-secret"];
  if (Boolean(otherKey) !== Boolean(otherSecret)) throw new Error("give --other-api-key and --other-api-secret together");
  return {
    name: baseUrl,
    baseUrl,
    apiKey,
    apiSecret,
    stateful: values.stateful,
    ...(otherKey && otherSecret ? { otherApplication: { apiKey: otherKey, apiSecret: otherSecret } } : {}),
  };
}

let target: Target;
try {
  target = targetFromArgs();
} catch (error) {
  console.error(`${(error as Error).message}\n\n${usage}`);
  process.exit(2);
}

const outcomes = await runChecks(target);
console.log(table(outcomes));
console.log(`\n${summary(target, outcomes)}`);
process.exitCode = outcomes.some((o) => o.status === "failed") ? 1 : 0;
