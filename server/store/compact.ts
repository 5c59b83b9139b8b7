// Compact copies of bulk records: parts that repeat across many reports (the country,
// region, device and user objects, enum-like strings) are shared instead of held once per
// record, which keeps a million reports in a few hundred megabytes. A part is shared only
// when it is equal in every field to the first one seen under its key.
import type { EncryptionReport } from "../domain/index.js";

type Country = EncryptionReport["country"];
type Device = EncryptionReport["device"];
type User = EncryptionReport["user"];

const sameUser = (a: User, b: User) =>
  a.email === b.email &&
  a.account.id === b.account.id &&
  a.account.first_name === b.account.first_name &&
  a.account.last_name === b.account.last_name &&
  a.account.image === b.account.image &&
  a.account.is_active === b.account.is_active;

export class Compactor {
  readonly #strings = new Map<string, string>();
  readonly #countries = new Map<string, Country>();
  readonly #regions = new Map<string, Country>();
  readonly #devices = new Map<string, Device>();
  readonly #users = new Map<number, User>();

  /** One shared instance of an equal, low-cardinality string. */
  #string(value: string): string {
    const shared = this.#strings.get(value);
    if (shared !== undefined) return shared;
    this.#strings.set(value, value);
    return value;
  }

  #place(map: Map<string, Country>, part: Country): Country {
    const shared = map.get(part.code);
    if (shared !== undefined && shared.name === part.name) return shared;
    const copy = { code: this.#string(part.code), name: this.#string(part.name) };
    if (shared === undefined) map.set(part.code, copy);
    return copy;
  }

  #device(device: Device): Device {
    const shared = this.#devices.get(device.id);
    if (shared !== undefined && shared.type === device.type && shared.version === device.version) return shared;
    const copy = { id: device.id, type: device.type, version: this.#string(device.version) };
    if (shared === undefined) this.#devices.set(device.id, copy);
    return copy;
  }

  #user(user: User): User {
    const shared = this.#users.get(user.id);
    if (shared !== undefined && sameUser(shared, user)) return shared;
    const copy = { id: user.id, email: user.email, account: { ...user.account } };
    if (shared === undefined) this.#users.set(user.id, copy);
    return copy;
  }

  /** A copy of a report whose repeated parts are shared with earlier reports. */
  report(r: EncryptionReport): EncryptionReport {
    return {
      id: r.id,
      type: this.#string(r.type),
      method: this.#string(r.method),
      status: this.#string(r.status),
      organization_id: this.#string(r.organization_id),
      application_id: this.#string(r.application_id),
      account_id: this.#string(r.account_id),
      profile_id: this.#string(r.profile_id),
      ip_source: r.ip_source,
      ip_device: r.ip_device,
      created_at: r.created_at,
      country: this.#place(this.#countries, r.country),
      region: this.#place(this.#regions, r.region),
      device: this.#device(r.device),
      user: this.#user(r.user),
    };
  }
}
