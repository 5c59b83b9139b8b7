// The JSON request body, parsed one body per event-loop turn. JSON.parse of a 100 kB body
// costs up to about a millisecond and cannot be interrupted; when the bodies of several
// connections complete in the same poll phase, their parses (and the validation after them)
// would run back to back ahead of every other request waiting on the loop. A client sending
// 99 kB bodies on 4 connections pushed another client's GET from p99 7 ms to 40-55 ms that
// way. Queued, each parse waits for the loop to turn once, so the requests that arrived
// meanwhile (a GET has no body to wait for) are served between two parses.
//
// body-parser reads and decodes the text (limit, Content-Encoding, charset); the parse
// keeps body-parser's strict JSON rules: only an object or array at the top level, and an
// empty body reads as `{}`. On a serverless platform the adapter has read the body already
// (a Buffer or text in `req.body`): the same reader reads it from there, so malformed JSON,
// the limit and the media type get the answers they get on a socket.
import { format as formatContentType, parse as parseContentType } from "content-type";
import { Readable } from "node:stream";
import express, { type Request, type RequestHandler } from "express";
import { ApiProblem, malformedJson, payloadTooLarge, unsupportedBodyEncoding, type ProblemErrorItem } from "../problems.js";
import { describeErrors } from "./validation-errors.js";

/** Runs queued tasks one per event-loop turn, in arrival order. */
export function turnQueue(): (task: () => void) => void {
  const tasks: (() => void)[] = [];
  const runOne = () => {
    const task = tasks.shift()!;
    // Queued from inside the check phase, the next task runs on the next turn, after a poll phase.
    if (tasks.length > 0) setImmediate(runOne);
    task();
  };
  return (task) => {
    tasks.push(task);
    if (tasks.length === 1) setImmediate(runOne);
  };
}

const notAnObject: ProblemErrorItem[] = [{ in: "body", pointer: "", message: "must be object" }];

/** The body text as a value; a well-formed scalar (`null`, `1`) is refused as not an object. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.?)/.exec(text)![1];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformedJson();
  }
  if (first !== "{" && first !== "[") throw new ApiProblem("validation_failed", describeErrors(notAnObject), notAnObject);
  return value;
}

/** JSON is text in a UTF encoding (RFC 8259 §8.1); other charsets are refused before the body is read. */
const utfOnly: RequestHandler = (req, _res, next) => {
  // Only a JSON body is read: `req.is` is falsy without a body or for another media type.
  if (!req.is("application/json")) return next();
  let charset: string | undefined;
  try {
    charset = parseContentType(req.headers["content-type"] ?? "").parameters.charset;
  } catch {
    // An unparsable Content-Type is not JSON: the text reader skips it and the validator answers 415.
  }
  next(charset === undefined || charset.toLowerCase().startsWith("utf-") ? undefined : unsupportedBodyEncoding());
};

const noBody: ProblemErrorItem[] = [{ in: "body", pointer: "", message: "is required" }];

/**
 * For an operation whose body is required: a request that sends none at all (no
 * Content-Length, no Transfer-Encoding) is a 400 here. The validator would otherwise reach
 * its discriminator step with no body and fail with a 500. A body of another media type is
 * left to the validator's 415.
 */
export const bodyRequired: RequestHandler = (req, _res, next) => {
  // `req.is` is null exactly when the request has no body.
  next(req.body === undefined && req.is("application/json") === null ? new ApiProblem("validation_failed", describeErrors(noBody), noBody) : undefined);
};

/**
 * A body a host app's parser in front of the layer (`express.json()`), or a platform, already
 * parsed into a value is validated as is; only a scalar, which a non-strict parser lets
 * through, is refused here as the layer's own parser refuses it.
 */
function hostParsed(body: unknown): ApiProblem | undefined {
  if (body === undefined || (typeof body === "object" && body !== null)) return undefined;
  return new ApiProblem("validation_failed", describeErrors(notAnObject), notAnObject);
}

/**
 * A body whose declared Content-Length is over the limit is refused before a byte of it is
 * read: the body reader would refuse it too, but only after draining the whole upload, so a
 * client declaring 10 MB and sending slowly held the request open. The connection closes
 * after the 413, as after any answer to a body left unread (server/middleware/unread-body.ts).
 */
function declaredLength(limitKb: number): RequestHandler {
  return (req, _res, next) => {
    const declared = req.headers["content-length"];
    if (declared === undefined || Number(declared) <= limitKb * 1024) return next();
    next(payloadTooLarge());
  };
}

/**
 * A request standing in for `req` whose body is `body`, the bytes or text a serverless
 * platform's adapter already read (serverless-http and @codegenie/serverless-express put a
 * Buffer in `req.body`, and leave the stream unread or unreadable), for the text reader.
 * Text is already decoded: it is read as UTF-8, without the request's Content-Encoding.
 */
function standIn(req: Request, body: Buffer | string): Readable & { body?: unknown } {
  const headers = { ...req.headers, "content-length": String(Buffer.byteLength(body)) };
  delete headers["transfer-encoding"];
  if (typeof body === "string") {
    delete headers["content-encoding"];
    try {
      const type = parseContentType(headers["content-type"] ?? "");
      headers["content-type"] = formatContentType({ type: type.type, parameters: { ...type.parameters, charset: "utf-8" } });
    } catch {
      // Not a media type the reader takes: it skips the body and the validator answers 415.
    }
  }
  return Object.assign(Readable.from([Buffer.from(body)]), { method: req.method, url: req.url, headers });
}

/** The steps that set `req.body` from an application/json body of at most `limitKb`. */
export function jsonBody(limitKb: number): RequestHandler[] {
  const fromSocket = express.text({ type: "application/json", limit: `${limitKb}kb` });
  // The same reader over a body the platform read: the limit, Content-Encoding and charset answer as on a socket.
  const readText: RequestHandler = (req, res, next) => {
    if (!Buffer.isBuffer(req.body) && typeof req.body !== "string") return fromSocket(req, res, next);
    const copy = standIn(req, req.body);
    fromSocket(copy as never, res, (error?: unknown) => {
      req.body = copy.body;
      next(error);
    });
  };
  const inTurn = turnQueue();
  const parse: RequestHandler = (req, _res, next) => {
    if (typeof req.body !== "string") return next(hostParsed(req.body));
    const text: string = req.body;
    inTurn(() => {
      try {
        req.body = parseStrict(text);
      } catch (error) {
        return next(error);
      }
      next();
    });
  };
  return [declaredLength(limitKb), utfOnly, readText, parse];
}

/**
 * Reads one small JSON body through a text reader like jsonBody's, in process (a stand-in
 * request: no socket, no handler), for `ready()`: the reader's first body loads iconv-lite's
 * encoding tables (about 9 ms), which a service's first request with a body paid otherwise.
 * Resolves with the text read, or undefined if the read failed: best effort, as a failure
 * only leaves the first body slower and must not keep a service from starting.
 */
export function warmBodyReader(): Promise<string | undefined> {
  const text = '{"warm":true}';
  const req = Object.assign(Readable.from([Buffer.from(text)]), {
    method: "PUT",
    url: "/",
    headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) },
  });
  const readText = express.text({ type: "application/json", limit: "1kb" });
  return new Promise((resolve) => {
    readText(req as never, {} as never, (error?: unknown) => resolve(error ? undefined : (req as unknown as { body: string }).body));
  });
}
