// A fetch that records every request the client sends and answers from a function, so
// client tests see exactly what would go on the wire, without a server or a global mock.
import { readFileSync } from "node:fs";

export type Responder = (request: Request) => Response | Promise<Response>;

export function observingFetch(respond: Responder = () => Response.json({})) {
  const requests: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    // Cloned so a test can read the body after the client has sent it.
    requests.push(request.clone());
    return respond(request);
  };
  return { fetch, requests };
}

/** The bundled document: request bodies and problems are taken from its own examples. */
export const doc = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

/** The value of a named example of `components/examples`. */
export function example(name: string): unknown {
  const found = doc.components.examples[name];
  if (!found) throw new Error(`no example ${name} in generated/openapi.json`);
  return found.value;
}

/** The first request-body example of an operation, `$ref`s resolved. */
export function requestExample(method: string, path: string): unknown {
  const content = doc.paths[path][method].requestBody.content["application/json"];
  const first = Object.values<{ $ref?: string; value?: unknown }>(content.examples)[0]!;
  return first.$ref ? example(first.$ref.split("/").pop()!) : first.value;
}
