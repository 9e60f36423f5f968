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
} as const;
export type Invariant = (typeof INVARIANTS)[keyof typeof INVARIANTS];

/** One broken invariant: what, about whom, when (service time), and the events it concerns (for the trace). */
export interface Violation {
  invariant: Invariant;
  message: string;
  at?: number;
  eventSeqs: number[];
}
