// The document as express-openapi-validator gets it (documentForValidator, its prose taken
// out by server/document/prose.ts): a prose edit (an operation's summary, a schema's, a
// parameter's, a response's or a request body's description, the description beside a
// `$ref`) leaves it as it was, so `npm run generate` leaves generated/validators.cjs as it was;
// a schema change does not; and names that look like prose (a property called `title`) stay.
import { describe, expect, it } from "vitest";
import { basePathOf, loadDocument, type ApiDocument } from "../../../server/document/load.js";
import { documentDigest } from "../../../server/contract-layer/precompiled.js";
import { documentForValidator } from "../../../server/contract-layer/validator.js";

/** A node of the parsed document (data, not typed code). */
type Node = any;
const basePath = basePathOf(loadDocument());
const forValidator = (document: ApiDocument) => documentForValidator(document, basePath) as Node;

describe("the validator's document", () => {
  const original = forValidator(loadDocument());

  it.each<[string, (document: Node) => void]>([
    ["an operation's summary", (document) => (document.paths["/notifications"].post.summary = "Another summary")],
    ["an operation's description", (document) => (document.paths["/notifications"].post.description = "Another description")],
    ["a schema's description", (document) => (document.components.schemas.Activity.description = "Another description")],
    ["a property's description", (document) => (document.components.schemas.Notification.properties.title.description = "Another description")],
    ["a description beside a $ref", (document) => (document.components.schemas.EmailFrom.description = "Another description")],
    ["a parameter's description", (document) => (document.components.parameters.Limit.description = "Another description")],
    ["a response's description", (document) => (document.components.responses.ReadWidgetNotFound.description = "Another description")],
    ["a request body's description", (document) => (document.paths["/notifications"].post.requestBody.description = "Another description")],
  ])("is the same after a change of %s", (_, edit) => {
    const document = loadDocument() as Node;
    const before = JSON.stringify(document);
    edit(document);
    expect(JSON.stringify(document)).not.toBe(before);
    const edited = forValidator(document);
    expect(edited).toEqual(original);
    expect(documentDigest(edited)).toBe(documentDigest(original));
  });

  it("differs after a schema change, and keeps properties named like prose", () => {
    const document = loadDocument() as Node;
    document.components.schemas.NotificationTitle.maxLength = 5;
    expect(documentDigest(forValidator(document))).not.toBe(documentDigest(original));
    expect(Object.keys(original.components.schemas.Notification.properties)).toContain("title");
    expect(original.components.schemas.Notification.properties.title).toMatchObject({ type: "string" });
    expect(original.components.schemas.Notification.properties.title).not.toHaveProperty("description");
    // A `$ref` that had prose beside it keeps an empty description (server/document/prose.ts).
    expect(original.components.schemas.EmailFrom).toEqual({ $ref: "#/components/schemas/EmailAddress", description: "" });
  });
});
