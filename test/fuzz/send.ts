// Sends a fuzz request to a running server and reads back status, headers, content type and body.
import type { FuzzRequest } from "./requests.js";

export interface Answer {
  status: number;
  contentType: string | null;
  /** Every response header, for the oracle's required-header and header-schema checks. */
  headers: Headers;
  body: unknown;
  text: string;
}

export async function send(baseUrl: string, r: FuzzRequest): Promise<Answer> {
  const query = new URLSearchParams(r.query).toString();
  const res = await fetch(`${baseUrl}${r.path}${query ? `?${query}` : ""}`, {
    method: r.method,
    headers: r.headers,
    body: r.body === undefined ? undefined : JSON.stringify(r.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // left as text: the content-type check reports it
  }
  return { status: res.status, contentType: res.headers.get("content-type"), headers: res.headers, body, text };
}
