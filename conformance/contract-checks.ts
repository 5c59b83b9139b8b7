// The checks every target must pass, the stateless mock included, that the Arazzo workflows
// cannot express (docs/conformance.md): for every operation of the generated table 401
// without (or with the other scheme's) credentials, 400 for values outside the schema, 404
// for unknown ids, 415 for a body that is not JSON; the e-mail transport's secrets not echoed.
// Each operation's success (status, content type, envelope, schema) is a workflow step's,
// but a deleting operation's, which uses up a disposable record and runs last.
import { operations, type OperationId } from "../generated/operations.js";
import { clientCalls, consumedBy, credentialNeeds, hasId, idNeeds, rawRequest, schemeOf, unknownId, type CallInput } from "./calls.js";
import type { Check } from "./check.js";
import { expectProblem, expectSuccess, expectThat } from "./expect.js";
import { viaClient, viaFetch, type RawRequest } from "./http.js";

const operationIds = Object.keys(operations) as OperationId[];

// A deletion uses up its record: the runner gives the check a disposable one of its own and
// runs it after every other check (Check.consumes), which a workflow step cannot be given.
function deletionCheck(operationId: OperationId, consumes: NonNullable<ReturnType<typeof consumedBy>>): Check {
  const { successStatus } = operations[operationId] as { successStatus: number };
  return {
    name: `${operationId}: ${successStatus} on a disposable ${consumes}, then 404 for it (run last)`,
    operationId,
    needs: [...idNeeds(operationId), ...credentialNeeds(operationId)],
    consumes,
    run: async (target) => {
      expectSuccess(operationId, await viaClient(target, (api) => clientCalls[operationId](api, target)));
      // A deletion is checked by its effect too: the same call again finds nothing.
      if (target.stateful) expectProblem(404, await viaClient(target, (api) => clientCalls[operationId](api, target)));
    },
  };
}

function unauthorizedChecks(operationId: OperationId): Check[] {
  const scheme = schemeOf(operationId);
  const other = scheme === "bearer" ? "keyPair" : "bearer";
  const otherName = other === "bearer" ? "a bearer key" : "X-Api-Key + X-Api-Secret";
  return [
    {
      name: `${operationId}: 401 problem without credentials`,
      operationId,
      run: async (target) => {
        const observed = await viaFetch(target, { ...rawRequest(operationId, target), credentials: "none" });
        expectProblem(401, observed);
        if (scheme === "bearer") {
          const challenge = observed.headers.get("www-authenticate") ?? "";
          expectThat(/^bearer\b/i.test(challenge), `WWW-Authenticate: expected "Bearer…", got "${challenge}"`);
        }
      },
    },
    {
      name: `${operationId}: 401 problem with ${otherName} only (the other scheme)`,
      operationId,
      needs: other === "keyPair" ? ["apiSecret"] : [],
      run: async (target) => expectProblem(401, await viaFetch(target, { ...rawRequest(operationId, target), credentials: other })),
    },
  ];
}

/** A value outside the schema, and how to put it into the operation's valid request. */
interface BadInput {
  what: string;
  /** Through the client when it can express the value, else plain fetch. */
  send: (operationId: OperationId) => Check["run"];
}

const throughClient =
  (input: CallInput) =>
  (operationId: OperationId): Check["run"] =>
  async (target) =>
    expectProblem(400, await viaClient(target, (api) => clientCalls[operationId](api, target, input)));

const throughFetch =
  (change: (valid: RawRequest) => RawRequest) =>
  (operationId: OperationId): Check["run"] =>
  async (target) =>
    expectProblem(400, await viaFetch(target, change(rawRequest(operationId, target))));

const withBody = (valid: RawRequest, body: unknown): RawRequest => ({ ...valid, body });
const validBody = (valid: RawRequest) => valid.body as Record<string, unknown>;

const limitOver100: BadInput = { what: "limit=101", send: throughClient({ limit: 101 }) };
const pageZero: BadInput = { what: "page=0", send: throughClient({ page: 0 }) };
const malformedId: BadInput = { what: 'the malformed id "bad id!"', send: throughClient({ id: "bad id!" }) };
const unknownField: BadInput = {
  what: "an unknown body field",
  send: throughFetch((valid) => withBody(valid, { ...validBody(valid), colour: "red" })),
};

/** Out-of-range inputs per operation; each becomes its own 400 check. A missing operation does not compile. */
export const badInputs: { [K in OperationId]: BadInput[] } = {
  readWidget: [malformedId],
  findUserActivity: [limitOver100, pageZero, malformedId],
  findEncryptionReports: [
    limitOver100,
    {
      what: "start_date in milliseconds",
      send: throughFetch((valid) => ({ ...valid, query: { start_date: "1767225600000" } })),
    },
  ],
  updateSmsProvider: [
    { what: 'sort "SIDEWAYS"', send: throughFetch((valid) => withBody(valid, { sort: "SIDEWAYS" })) },
    { what: "an unknown body field", send: throughFetch((valid) => withBody(valid, { colour: "red" })) },
    malformedId,
  ],
  saveEmailTransport: [
    unknownField,
    {
      what: "auth of the other provider's shape",
      send: throughFetch((valid) => {
        const body = validBody(valid);
        return withBody(valid, { ...body, type: body.type === "SES" ? "SENDGRID" : "SES" });
      }),
    },
  ],
  createNotification: [{ what: "a 51-character title", send: throughFetch((valid) => withBody(valid, { ...validBody(valid), title: "x".repeat(51) })) }, unknownField],
  readWebhook: [malformedId],
  findWebhookHistory: [limitOver100, malformedId],
  findWebhooks: [limitOver100, pageZero],
};

function badInputChecks(operationId: OperationId): Check[] {
  return badInputs[operationId].map((bad) => ({
    name: `${operationId}: 400 problem for ${bad.what}`,
    operationId,
    needs: credentialNeeds(operationId),
    run: bad.send(operationId),
  }));
}

// A stateless mock cannot know which ids exist; there `Prefer: code=404` asks Prism for the
// documented 404, so the check still proves the 404 is documented and a valid problem.
function notFoundCheck(operationId: OperationId): Check {
  return {
    name: `${operationId}: 404 problem for an unknown id`,
    operationId,
    needs: credentialNeeds(operationId),
    run: async (target) => {
      const prefer: Record<string, string> = target.stateful ? {} : { Prefer: "code=404" };
      expectProblem(404, await viaClient(target, (api) => clientCalls[operationId](api, target, { id: unknownId(operationId) }), prefer));
    },
  };
}

function unsupportedMediaTypeCheck(operationId: OperationId): Check {
  return {
    name: `${operationId}: 415 problem for a body that is not application/json`,
    operationId,
    needs: credentialNeeds(operationId),
    run: async (target) => {
      const valid = rawRequest(operationId, target);
      const text = new URLSearchParams({ title: "form-encoded" }).toString();
      const headers = { "content-type": "application/x-www-form-urlencoded" };
      expectProblem(415, await viaFetch(target, { ...valid, text, headers }));
    },
  };
}

const secretsNotEchoed: Check = {
  name: "saveEmailTransport: the response carries none of the submitted auth values",
  operationId: "saveEmailTransport",
  run: async (target) => {
    const observed = await viaClient(target, (api) => clientCalls.saveEmailTransport(api, target));
    expectSuccess("saveEmailTransport", observed);
    const auth = (rawRequest("saveEmailTransport").body as { auth: Record<string, string> }).auth;
    // `region` is answered on purpose (docs/decisions.md, E-mail transport); every other auth value is a secret.
    // The headers too: a service may echo its input in a debugging header as readily as in the body.
    const answer = [...observed.headers].map(([name, value]) => `${name}: ${value}`).join("\n") + "\n\n" + observed.text;
    const echoed = Object.entries(auth).filter(([key, value]) => key !== "region" && answer.includes(value));
    expectThat(echoed.length === 0, `the response contains the submitted ${echoed.map(([key]) => key).join(", ")}`);
  },
};

/** The checks that hold on every target, stateless mock included. */
export const contractChecks: Check[] = [
  ...operationIds.flatMap((operationId) => [
    ...(consumedBy(operationId) ? [deletionCheck(operationId, consumedBy(operationId)!)] : []),
    ...unauthorizedChecks(operationId),
    ...badInputChecks(operationId),
    ...(hasId(operationId) ? [notFoundCheck(operationId)] : []),
    ...(operations[operationId].hasBody ? [unsupportedMediaTypeCheck(operationId)] : []),
  ]),
  secretsNotEchoed,
];
