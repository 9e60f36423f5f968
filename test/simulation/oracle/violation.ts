/** The invariants the oracle checks (docs/architecture.md#the-whole-system-simulation). */
export const INVARIANTS = {
  early: 'nothing-before-its-time',
  once: 'each-change-once',
  unpromised: 'nothing-unpromised',
  withdrawn: 'withdrawn-stays-undone',
  kept: 'promise-kept-or-explained',
  reports: 'reports-match-the-service',
  bound: 'finishes-within-bound',
  audit: 'audit-trail-complete',
  elsewhere: 'changes-elsewhere-told-apart',
} as const;
export type Invariant = (typeof INVARIANTS)[keyof typeof INVARIANTS];

/** One broken invariant: what, about whom, when (service time), and the events it concerns (for the trace). */
export interface Violation {
  invariant: Invariant;
  message: string;
  at?: number;
  eventSeqs: number[];
  /** It concerns a step of a lifecycle (offboarding, joiners, movers) rather than an ordinary batch's row. */
  lifecycle?: boolean;
}

/** A promise of a lifecycle's step: keyed by its workflow (`o…`, `j…`, `m…`) or its sync run (`<policy>@…`). */
export function isLifecycleKey(key: string): boolean {
  return /^[ojm][0-9a-f]{12}[-:]/.test(key) || /^[^:]+@[0-9a-f]{12}:/.test(key);
}
