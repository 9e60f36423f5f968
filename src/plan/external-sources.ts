import type { Config } from '../core/config.js';

/** A source that manages users outside the service (config `externalSources`). */
export type ExternalSource = Config['externalSources'][number];

/**
 * The configured source that manages `email`, if any: listed by address, or by its mail domain or a parent domain.
 * The wire carries nothing that says a user is managed elsewhere (docs/service.md#externally-managed-users), so the
 * operator's list is the only thing the plan can go by.
 */
export function externalSourceOf(email: string, sources: readonly ExternalSource[]): ExternalSource | undefined {
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return sources.find((source) => source.emails.includes(address) || source.domains.some((d) => domain === d || domain.endsWith(`.${d}`)));
}
