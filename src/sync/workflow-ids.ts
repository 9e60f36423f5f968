import { createHash } from 'node:crypto';

/**
 * Which lifecycle a workflow id names, by its first letter: `j…` joiners, `m…` movers, `d…` a domain migration
 * (src/migrate), else (`o…`) an offboarding.
 */
export function lifecycleOfWorkflowId(workflowId: string): 'joiners' | 'movers' | 'domain-migration' | 'offboarding' {
  return workflowId.startsWith('j') ? 'joiners' : workflowId.startsWith('m') ? 'movers' : workflowId.startsWith('d') ? 'domain-migration' : 'offboarding';
}

/** The lifecycles' names as a heading says them. */
export const LIFECYCLE_WORDS: Readonly<Record<string, string>> = { offboarding: 'Offboarding', joiners: 'Joiners', movers: 'Movers', 'domain-migration': 'Domain migration' };

/** `j…` / `m…` + 12 hex: the workflow of a lifecycle for one run (the same run applied twice finds it). */
export function hrWorkflowIdOf(prefix: 'j' | 'm', runHash: string): string {
  return `${prefix}${createHash('sha256').update(`${prefix}\n${runHash}`).digest('hex').slice(0, 12)}`;
}
