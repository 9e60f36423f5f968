import type { ServiceFacts } from './service-constraints.js';

/** Actions the service refuses for a user an identity provider or directory integration manages. */
const REFUSED_WHEN_MANAGED_ELSEWHERE = new Set(['deactivate', 'reactivate', 'remove']);

/**
 * What the plan cannot know from the service, said once under the rows instead of on each: the wire carries nothing
 * that tells a user managed by an identity provider or directory integration (docs/service.md#externally-managed-users),
 * so unless config `externalSources` lists them, such a user's deactivate, reactivate or remove row is planned as a
 * change the service will refuse when it runs. `changesByAction`: the plan's change rows per action (PlanTally).
 */
export function planNotes(changesByAction: ReadonlyMap<string, number>, service: ServiceFacts): string[] {
  let exposed = 0;
  for (const action of REFUSED_WHEN_MANAGED_ELSEWHERE) exposed += changesByAction.get(action) ?? 0;
  if (exposed === 0 || (service.externalSources ?? []).length > 0) return [];
  return [
    `${exposed} deactivate, reactivate or remove row${exposed === 1 ? '' : 's'} will be refused when run if the user is managed by an identity provider or directory integration: the service says so only then. List such sources in config externalSources to have the plan refuse them now.`,
  ];
}
