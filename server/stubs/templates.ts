// The files `authsvc-api stubs` writes into a service's own source tree: one handler module
// per operation, answering the documented 501 `not_implemented` problem, and `index.ts`, the
// handler map over them. Their text is a function of the operation alone (id, method, path),
// so the command can tell an untouched stub from an implemented handler by comparing texts,
// with what formatters change taken out (sameCode).

/** What a stub names of its operation. */
export interface StubOperation {
  operationId: string;
  method: string;
  path: string;
}

/** The import every stub and the map use: the server package's Express entry. */
export const entry = "@authsvc/app-api-server/express";

/** `readWidget` → `readWidget.ts`. */
export const stubFile = (operationId: string) => `${operationId}.ts`;

/** The stub of one operation: typed as its handler, answering 501 until its body is replaced. */
export function stubModule({ operationId, method, path }: StubOperation): string {
  const operation = `${method.toUpperCase()} ${path}`;
  return `// ${operation} (${operationId}). Written by \`authsvc-api stubs\`: it answers the documented
// 501 not_implemented problem until you replace its body. Once this file differs from the
// stub, the command never writes to it again; it reports contract changes you must follow.
import { ApiProblem, type Handler } from "${entry}";

export const ${operationId}: Handler<"${operationId}"> = () => {
  throw new ApiProblem("not_implemented", "${operation} is not implemented by this service yet.");
};
`;
}

/** The handler map over every operation's module. */
export function indexModule(operationIds: readonly string[]): string {
  const sorted = [...operationIds].sort();
  return `// The handler map, one module per operation. Written by \`authsvc-api stubs\`, which rewrites
// it when the contract adds or removes an operation, unless you edited it.
import type { Handlers } from "${entry}";
${sorted.map((id) => `import { ${id} } from "./${id}.js";`).join("\n")}

export const handlers: Handlers = {
${sorted.map((id) => `  ${id},`).join("\n")}
};
`;
}

/**
 * Whether two module texts differ only in what formatters and checkouts change: how much
 * whitespace and which line ends (a run of it is one space, and none next to punctuation),
 * the quote character, semicolons, trailing commas. A stub Prettier or Biome reformatted,
 * or a CRLF checkout, is still a stub; a changed word or token is not.
 */
export function sameCode(a: string, b: string): boolean {
  const code = (text: string) =>
    text
      .replace(/'/g, '"')
      .replace(/;/g, "")
      .replace(/\s+/g, " ")
      .replace(/ ?([^\w\s$]) ?/g, "$1")
      .replace(/,([)\]}])/g, "$1")
      .trim();
  return code(a) === code(b);
}
