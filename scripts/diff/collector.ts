// Gathers classified changes. A change of a shared component is found once per operation
// that uses it; it is reported once, naming every operation it reaches.
import { isBreaking, type RuleId } from "./rules.js";

export interface Change {
  /** Stable rule id (scripts/diff/rules.ts). */
  rule: RuleId;
  /** Whether the change breaks clients written against the base document. */
  breaking: boolean;
  /** One sentence for humans. */
  message: string;
  /** JSON pointer in the base document (where the thing was, or where it would be). */
  base: string;
  /** JSON pointer in the head document. */
  head: string;
  /** The operations it reaches, e.g. `GET /webhooks`; empty for document-wide changes. */
  operations: string[];
}

export class Collector {
  private readonly changes = new Map<string, Change>();
  /** The operation being compared (`GET /webhooks`), or undefined outside operations. */
  operation: string | undefined;

  add(rule: RuleId, message: string, base: string, head: string): void {
    const key = `${rule}\u0000${base}\u0000${head}`;
    let change = this.changes.get(key);
    if (!change) {
      change = { rule, breaking: isBreaking(rule), message, base, head, operations: [] };
      this.changes.set(key, change);
    }
    if (this.operation && !change.operations.includes(this.operation)) change.operations.push(this.operation);
  }

  list(): Change[] {
    return [...this.changes.values()];
  }
}
