// PUT /sms/providers/{id} as a pure function of the application's provider list: the store
// applies the result in one synchronous step, so concurrent requests never interleave.
// Positions stay 1..n without gap or duplicate, and exactly one provider is the default.
import { conflict, notFound } from "../problems.js";
import type { SmsProvider, SmsProviderUpdate } from "../domain/index.js";

/** The list after the update (ordered by position) and the updated provider. */
export interface ProviderUpdateResult {
  providers: SmsProvider[];
  updated: SmsProvider;
}

/**
 * Applies `patch` to provider `id` of `providers` (ordered by position). `sort` moves it one
 * place (no-op at either end); `is_default: true` makes it the only default; `is_default:
 * false` on the current default is a conflict (another provider must become the default).
 */
export function updateProvider(providers: readonly SmsProvider[], id: string, patch: SmsProviderUpdate): ProviderUpdateResult {
  const index = providers.findIndex((provider) => provider.id === id);
  const current = providers[index];
  if (current === undefined) throw notFound(`SMS provider ${id} was not found.`);
  if (patch.is_default === false && current.is_default) {
    throw conflict(`SMS provider ${id} is the default; make another provider the default instead.`);
  }

  const updated: SmsProvider = {
    ...current,
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.countries !== undefined && { countries: [...patch.countries] }),
    ...(patch.patterns !== undefined && { patterns: [...patch.patterns] }),
    ...(patch.phone_types !== undefined && { phone_types: [...patch.phone_types] }),
    ...(patch.is_active !== undefined && { is_active: patch.is_active }),
    ...(patch.log_messages !== undefined && { log_messages: patch.log_messages }),
    ...(patch.is_default === true && { is_default: true }),
  };

  const next = providers.map((provider, i) => (i === index ? updated : patch.is_default === true && provider.is_default ? { ...provider, is_default: false } : provider));
  const target = patch.sort === "UP" ? index - 1 : patch.sort === "DOWN" ? index + 1 : index;
  if (target !== index && target >= 0 && target < next.length) {
    [next[index], next[target]] = [next[target]!, next[index]!];
  }
  const renumbered = next.map((provider, i) => (provider.sort === i + 1 ? provider : { ...provider, sort: i + 1 }));
  return { providers: renumbered, updated: renumbered.find((provider) => provider.id === id)! };
}
