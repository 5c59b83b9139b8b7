// Exactness of what a handler returns. TypeScript checks a returned object against the
// operation's types only for what is there, not for what is too much: a property the
// schema does not declare (`{ ...row, internal_note }`) compiles, and the response
// validator answers 500 at run time. `exact(operationId, output)` makes such a property a
// compile error, at any depth, for an output built from literals or from values of a
// narrower type. It cannot see what a type does not show: a value already typed as the
// schema's type (a cast), `any`, or an object the schema leaves open (`additionalProperties`).
import type { OperationId } from "../../generated/operations.js";
import type { HandlerOutput, OperationOutput } from "./contract.js";

type KeysOf<Shape> = Shape extends unknown ? keyof Shape : never;
type ValueAt<Shape, K> = Shape extends unknown ? (K extends keyof Shape ? Shape[K] : never) : never;

/**
 * The path of the first property of `T` that no member of `Shape` declares, at any depth
 * (arrays item by item), e.g. `"result.internal_note"`; `never` when there is none. A union
 * `Shape` allows a key any of its members declares; an open object (index signature) any key.
 */
export type UndeclaredPath<Shape, T> = T extends readonly (infer Item)[]
  ? Shape extends readonly (infer ShapeItem)[]
    ? UndeclaredPath<ShapeItem, Item>
    : never
  : T extends object
    ? string extends KeysOf<Shape>
      ? never
      : {
          [K in keyof T & string]-?: K extends KeysOf<Shape> ? (UndeclaredPath<ValueAt<Shape, K>, T[K]> extends infer P extends string ? `${K}.${P}` : never) : K;
        }[keyof T & string]
    : never;

/**
 * Nothing more when `T` declares nothing more than `Shape`; else an object type whose one
 * required key names the property. Intersected with the argument's own type, it makes the
 * argument unassignable, and TypeScript's message (5.9 and 7.0 alike) says which key is
 * missing: `Property '"property not in the document: result.internal_note"' is missing`.
 * (A required extra rest parameter said only `Expected 3 arguments, but got 2`.)
 */
type Exactly<Shape, T> = [UndeclaredPath<Shape, T>] extends [never] ? unknown : { [P in `property not in the document: ${UndeclaredPath<Shape, T>}`]: never };

/**
 * The handler output of operation K, refused at compile time if it holds a property the
 * document does not declare (the error names it): `return exact("readWidget", { type,
 * result })`. Returns its argument unchanged.
 */
export function exact<K extends OperationId, const T extends HandlerOutput<K>>(_operationId: K, output: T & Exactly<HandlerOutput<K>, T>): HandlerOutput<K> {
  return output;
}

/** The same for the operation types `O` of any document: `exactOutput<operations["readGadget"]>()(output)`. */
export const exactOutput =
  <O>() =>
  <const T extends OperationOutput<O>>(output: T & Exactly<OperationOutput<O>, T>): OperationOutput<O> =>
    output;
