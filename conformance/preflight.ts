// What is checked before any check runs, so that a run reports the setup's mistakes as
// such instead of as failures of the service: a target that cannot be reached at all is one
// error (not a refused connection per check), an API key it refuses is named, and each
// fixture is asked for: an id the checked application does not hold, an SMS provider that
// is not the default, another application whose key is refused, or a disposable record
// that is also the shared one is a fixture error (records only on a stateful target). An
// answer that breaks the run's bounds (late, endless, too large) is the service's failure,
// not the setup's: the preflight stops there and the checks report it, each a FAIL.
import { operations, type OperationId } from "../generated/operations.js";
import { HostileAnswer, TargetStalled } from "./errors.js";
import { clientCalls, idFixtures } from "./calls.js";
import { viaClient, type Observed } from "./http.js";
import { connectionError, TargetUnreachable } from "./suite.js";
import type { IdFixture, Target } from "./target.js";

/** The first operation whose `{id}` a fixture fills (a read when there is one). */
function operationFor(kind: IdFixture): OperationId | undefined {
  const using = (Object.keys(idFixtures) as OperationId[]).filter((operationId) => idFixtures[operationId] === kind);
  return using.find((operationId) => operations[operationId].method === "get") ?? using[0];
}

async function ask(target: Target, call: (target: Target) => Promise<Observed>): Promise<Observed> {
  try {
    // A 501 not_implemented is an answer here, whatever the run does with it: it shows no setup mistake.
    return await call({ ...target, skipNotImplemented: false });
  } catch (error) {
    const code = connectionError(error);
    if (code) throw new TargetUnreachable(`target not reachable: ${target.baseUrl} (${code})`);
    throw error;
  }
}

/** Throws TargetUnreachable; returns one line per fixture mistake (empty when the setup is right). */
export async function preflight(target: Target): Promise<string[]> {
  const errors: string[] = [];
  try {
    await findMistakes(target, errors);
  } catch (error) {
    if (!(error instanceof HostileAnswer || error instanceof TargetStalled)) throw error;
  }
  return errors;
}

async function findMistakes(target: Target, errors: string[]): Promise<void> {
  const probe = (Object.keys(operations) as OperationId[]).find(
    (operationId) => operations[operationId].security[0] === "bearerAuth" && operations[operationId].method === "get" && !operations[operationId].path.includes("{"),
  );
  if (probe) {
    const answer = await ask(target, (t) => viaClient(t, (api) => clientCalls[probe](api, t)));
    if (answer.status === 401) errors.push(`--api-key is refused by the target (401 on ${operations[probe].method.toUpperCase()} ${operations[probe].path})`);
    if (answer.status === 404 && !/problem\+json/.test(answer.contentType))
      errors.push(`${target.baseUrl} answers 404 without a problem on ${operations[probe].path}: is --base-url right (it includes the base path, e.g. /v1)?`);
    const other = target.fixtures.otherApplication;
    if (other && (await ask(target, (t) => viaClient({ ...t, ...other }, (api) => clientCalls[probe](api, t)))).status === 401) {
      errors.push(`fixture otherApplication: its apiKey is refused by the target (401)`);
    }
  }
  // A stateless target (a mock) answers the examples whatever the id: its records cannot be asked for.
  if (!target.stateful) return;
  const kinds = new Set(Object.values(idFixtures));
  for (const kind of kinds) {
    const operationId = operationFor(kind);
    if (!operationId) continue;
    const ids = [target.fixtures[kind], ...(target.fixtures.disposable?.[kind] ?? [])].filter((id): id is string => id !== undefined);
    for (const [index, id] of ids.entries()) {
      const what = index === 0 && target.fixtures[kind] !== undefined ? `fixture ${kind} "${id}"` : `disposable ${kind} "${id}"`;
      if (index > 0 && id === target.fixtures[kind]) {
        errors.push(`${what} is also the shared ${kind} fixture: a check would delete the record later checks need`);
        continue;
      }
      const answer = await ask(target, (t) => viaClient(t, (api) => clientCalls[operationId](api, t, { id })));
      if (answer.status === 404)
        errors.push(
          `${what}: ${operations[operationId].method.toUpperCase()} ${operations[operationId].path} answers 404 (the checked application holds no such record)`,
        );
      else if (answer.status === 400)
        errors.push(`${what}: ${operations[operationId].method.toUpperCase()} ${operations[operationId].path} answers 400 (not an id of this kind)`);
      else if (kind === "smsProvider" && answer.status === 200 && (answer.body as { result?: { is_default?: boolean } })?.result?.is_default !== true) {
        errors.push(`${what} is not the application's default SMS provider (the checks need the default one)`);
      }
    }
  }
}
