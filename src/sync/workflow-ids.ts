import { createHash } from 'node:crypto';

/** Which lifecycle a workflow id names, by its first letter: `j…` joiners, `m…` movers, else (`o…`) an offboarding. */
export function lifecycleOfWorkflowId(workflowId: string): 'joiners' | 'movers' | 'offboarding' {
  return workflowId.startsWith('j') ? 'joiners' : workflowId.startsWith('m') ? 'movers' : 'offboarding';
}

/** The lifecycles' names as a heading says them. */
export const LIFECYCLE_WORDS: Readonly<Record<string, string>> = { offboarding: 'Offboarding', joiners: 'Joiners', movers: 'Movers' };

/** `j…` / `m…` + 12 hex: the workflow of a lifecycle for one run (the same run applied twice finds it). */
export function hrWorkflowIdOf(prefix: 'j' | 'm', runHash: string): string {
  return `${prefix}${createHash('sha256').update(`${prefix}\n${runHash}`).digest('hex').slice(0, 12)}`;
}
