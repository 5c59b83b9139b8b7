// Every example of the document is valid against its schema under a strict 2020-12
// validator (Ajv 2020 + formats). Redocly's own example check runs lenient (it mishandles
// unevaluatedProperties through if/then/else), so this is the strict check. Mutations of
// the examples prove the schemas refuse what the source forbids.
import { describe, expect, it } from "vitest";
import { bodySchema, check, copy, deref, doc, operation, operations, parameter, type Node } from "./document.js";

interface Example {
  where: string;
  schema: Node;
  value: unknown;
}

/** The examples of a media type, parameter or header: `example` and each named one. */
function examplesOf(holder: Node, schema: Node, where: string): Example[] {
  const found: Example[] = [];
  if (holder.example !== undefined) found.push({ where, schema, value: holder.example });
  for (const [name, example] of Object.entries<Node>(holder.examples ?? {})) {
    found.push({ where: `${where} example ${name}`, schema, value: deref(example).value });
  }
  return found;
}

function mediaExamples(content: Node, where: string): Example[] {
  return Object.entries<Node>(content ?? {}).flatMap(([type, media]) => examplesOf(media, media.schema, `${where} ${type}`));
}

/** Every example reachable from the operations: bodies, responses, parameters, headers. */
function operationExamples(): Example[] {
  return operations().flatMap(({ method, path, op }) => {
    const at = `${method} ${path}`;
    const body = op.requestBody ? mediaExamples(deref(op.requestBody).content, `${at} request`) : [];
    const params = (op.parameters ?? []).map(deref).flatMap((p: Node) => examplesOf(p, p.schema, `${at} parameter ${p.name}`));
    const responses = Object.entries<Node>(op.responses).flatMap(([status, ref]) => {
      const response = deref(ref);
      const headers = Object.entries<Node>(response.headers ?? {}).flatMap(([name, header]) =>
        examplesOf(deref(header), deref(header).schema, `${at} ${status} header ${name}`),
      );
      return [...mediaExamples(response.content, `${at} ${status}`), ...headers];
    });
    return [...body, ...params, ...responses];
  });
}

/** The `examples` keyword of every schema node under components.schemas. */
function schemaExamples(): Example[] {
  const found: Example[] = [];
  const walk = (node: Node, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node.examples)) node.examples.forEach((value: unknown, i: number) => found.push({ where: `${where} examples[${i}]`, schema: node, value }));
    for (const [key, child] of Object.entries(node)) if (key !== "examples" && key !== "const" && key !== "enum") walk(child, `${where}/${key}`);
  };
  walk(doc.components.schemas, "#/components/schemas");
  return found;
}

const all = operationExamples();

describe("every example is valid against its schema", () => {
  it("covers every operation's body, success and error responses", () => {
    const documented = operations();
    expect(documented.length).toBeGreaterThan(0);
    for (const { method, path, op } of documented) {
      const at = `${method} ${path}`;
      const statuses = Object.keys(op.responses);
      expect(statuses.length, at).toBeGreaterThan(0);
      // Every response with a body has an example of it; a 204 has no body to exemplify.
      const withBody = statuses.filter((status) => deref(op.responses[status]).content !== undefined);
      expect(
        withBody.filter((status) => !all.some((e) => e.where.startsWith(`${at} ${status} application/`))),
        `${at}: responses without an example`,
      ).toEqual([]);
      // A request example exactly when there is a request body to exemplify.
      expect(
        all.some((e) => e.where.startsWith(`${at} request`)),
        `${at} request`,
      ).toBe(op.requestBody !== undefined);
      const parameters: string[] = (op.parameters ?? []).map((p: Node) => deref(p).name);
      expect(
        parameters.filter((name) => !all.some((e) => e.where === `${at} parameter ${name}`)),
        `${at}: parameters without an example`,
      ).toEqual([]);
    }
  });

  it.each(all.map((e) => [e.where, e]))("%s", (_, example) => {
    expect(check(example.schema, example.value)).toEqual({ valid: true, errors: "" });
  });

  // An empty table would register no test: the schemas do carry examples.
  it("finds the examples of components.schemas", () => {
    expect(schemaExamples().length).toBeGreaterThan(0);
  });

  it.each(schemaExamples().map((e) => [e.where, e]))("schema %s", (_, example) => {
    expect(check(example.schema, example.value)).toEqual({ valid: true, errors: "" });
  });

  it("the examples tell one story: application A's ids throughout", () => {
    const text = JSON.stringify(doc.components.examples);
    expect(text).not.toContain("org_6e2a9f13b8c5"); // application B never appears
    const organizations = new Set(text.match(/org_[0-9a-f]{12}/g));
    const applications = new Set(text.match(/app_[0-9a-f]{12}/g));
    expect([...organizations]).toEqual(["org_4b7d2e91c0a3"]);
    expect([...applications]).toEqual(["app_8c1f5e20d9b4"]);
  });
});

describe("mutations of the examples are refused", () => {
  const notifications = operation("POST", "/notifications");
  const emails = operation("POST", "/custom/emails");
  const requestExample = (op: Node, predicate: (value: Node) => boolean): Node => {
    const found = Object.values<Node>(deref(op.requestBody).content["application/json"].examples)
      .map((e) => deref(e).value)
      .find(predicate);
    if (!found) throw new Error(`no such request example on ${op.operationId}`);
    return copy(found);
  };
  const simple = () => requestExample(notifications, (v) => v.type === "SIMPLE");
  const radio = () => requestExample(notifications, (v) => v.type === "RADIO");
  const sendgrid = () => requestExample(emails, (v) => v.type === "SENDGRID");
  const ses = () => requestExample(emails, (v) => v.type === "SES");
  const refused = (schema: Node, value: unknown) => expect(check(schema, value).valid, JSON.stringify(value)).toBe(false);

  it("the unmutated examples pass (so each refusal below is the mutation's doing)", () => {
    for (const value of [simple(), radio()]) expect(check(bodySchema(notifications), value).valid).toBe(true);
    for (const value of [sendgrid(), ses()]) expect(check(bodySchema(emails), value).valid).toBe(true);
    expect(check(parameter(operation("GET", "/reports/encryption"), "limit").schema, 100).valid).toBe(true);
  });

  it("title of 51 characters", () => refused(bodySchema(notifications), { ...simple(), title: "t".repeat(51) }));

  it("limit 101", () => refused(parameter(operation("GET", "/reports/encryption"), "limit").schema, 101));

  it("RADIO with 1 item", () => {
    const value = radio();
    value.radio = value.radio.slice(0, 1);
    refused(bodySchema(notifications), value);
  });

  it("close_text on SIMPLE", () => refused(bodySchema(notifications), { ...simple(), close_text: "Close" }));

  it("radio on SIMPLE, checkbox on RADIO", () => {
    refused(bodySchema(notifications), { ...simple(), radio: radio().radio });
    refused(bodySchema(notifications), { ...radio(), checkbox: radio().radio });
  });

  it("broadcast with receivers, and broadcast with groups", () => {
    refused(bodySchema(notifications), { ...radio(), receivers: ["usr_7d2e9a4c1b6f"] });
    refused(bodySchema(notifications), { ...radio(), groups: [7] });
  });

  it("no target at all", () => {
    const { receivers: _receivers, ...value } = simple();
    refused(bodySchema(notifications), value);
    refused(bodySchema(notifications), { ...value, broadcast: false });
    refused(bodySchema(notifications), { ...value, receivers: [] });
  });

  it("SES auth on SENDGRID, and SENDGRID auth on SES", () => {
    refused(bodySchema(emails), { ...sendgrid(), auth: ses().auth });
    refused(bodySchema(emails), { ...ses(), auth: sendgrid().auth });
  });

  it("an e-mail type outside SENDGRID and SES", () => refused(bodySchema(emails), { ...sendgrid(), type: "MAILGUN" }));
});
