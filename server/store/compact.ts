// Compact copies of bulk records: values that repeat across many records (country and
// region objects, device and user objects, enum-like strings) are shared instead of held
// once per record, which keeps a million reports in a few hundred megabytes.
import type { EncryptionReport } from "../seed/types.js";

export class Compactor {
  readonly #strings = new Map<string, string>();
  readonly #objects = new Map<string, object>();

  /** One shared instance of an equal string. */
  string(value: string): string {
    const shared = this.#strings.get(value);
    if (shared !== undefined) return shared;
    this.#strings.set(value, value);
    return value;
  }

  #shared<T extends object>(key: string, make: () => T): T {
    const shared = this.#objects.get(key);
    if (shared !== undefined) return shared as T;
    const value = make();
    this.#objects.set(key, value);
    return value;
  }

  /** A copy of a report whose repeated parts are shared with earlier reports. */
  report(r: EncryptionReport): EncryptionReport {
    const { country, region, device, user } = r;
    const account = user.account;
    return {
      id: r.id,
      type: this.string(r.type),
      method: this.string(r.method),
      status: this.string(r.status),
      organization_id: this.string(r.organization_id),
      application_id: this.string(r.application_id),
      account_id: this.string(r.account_id),
      profile_id: this.string(r.profile_id),
      ip_source: this.string(r.ip_source),
      ip_device: this.string(r.ip_device),
      created_at: r.created_at,
      country: this.#shared(`c\0${country.code}\0${country.name}`, () => ({ code: country.code, name: country.name })),
      region: this.#shared(`r\0${region.code}\0${region.name}`, () => ({ code: region.code, name: region.name })),
      device: this.#shared(`d\0${device.id}\0${device.type}\0${device.version}`, () => ({ ...device })),
      user: this.#shared(
        `u\0${user.id}\0${user.email}\0${account.id}\0${account.first_name}\0${account.last_name}\0${account.image}\0${account.is_active}`,
        () => ({ id: user.id, email: user.email, account: { ...account } }),
      ),
    };
  }
}
