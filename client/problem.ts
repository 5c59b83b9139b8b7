// The error body of every operation, in its own module so the client's parts (the barrel,
// paging) import it without importing each other.
import type { components } from "../generated/schema.js";

/** An RFC 9457 problem, as every error response of the API carries. */
export type Problem = components["schemas"]["Problem"] | components["schemas"]["NotImplementedProblem"];
