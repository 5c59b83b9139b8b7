// The one demo record the state checks need that no example of the document names: the
// default SMS provider of application A, read from the demo seed (test/support/demo.ts). A
// target checked with --stateful must hold application A's demo records.
import { recordsOfA } from "../support/demo.js";

if (!recordsOfA.defaultSmsProvider) throw new Error("application A of the demo seed has no default SMS provider");
export const defaultSmsProviderId: string = recordsOfA.defaultSmsProvider;
