// A fetch that records every request the client sends and answers from a function, so
// client tests see exactly what would go on the wire, without a server or a global mock.
import { operations, type OperationId } from "../../generated/operations.js";
import { exampleBody } from "../support/document.js";

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

/** The first request-body example of the operation at this method and path (test/support/document.ts). */
export function requestExample(method: string, path: string): unknown {
  const found = (Object.keys(operations) as OperationId[]).find((id) => operations[id].method === method && operations[id].path === path);
  if (!found) throw new Error(`no operation ${method} ${path}`);
  return exampleBody(found);
}
