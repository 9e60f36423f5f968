import type { ChangeKind } from '../../core/governance-config.js';
import type { PlanFingerprint } from './plan-fingerprint.js';

/** What a change became once queued. */
export interface QueuedChange {
  /** The batch or offboarding id (the request's id). */
  id: string;
  /** False when it had been queued before (the same id): nothing was queued twice. */
  created: boolean;
}

/** A fresh plan of a request's input, against live state, and how to queue exactly it. */
export interface Replanned {
  plan: PlanFingerprint;
  /** Queues the plan just made (not a newer one): called only when its hash is the approved one. */
  queue(): Promise<QueuedChange>;
}

/**
 * One kind of change (a manifest batch, an offboarding, a reconciliation run, a sync, a revert): how an approved
 * request is planned again from what was stored when it was asked for. A submit path that wants approvals calls the
 * gate with its plan and its input; the process that approves re-plans through this.
 */
export interface ChangeKindHandler {
  kind: ChangeKind;
  replan(input: unknown): Promise<Replanned>;
}

export type ChangeKinds = ReadonlyMap<ChangeKind, ChangeKindHandler>;

export function changeKinds(...handlers: ChangeKindHandler[]): ChangeKinds {
  return new Map(handlers.map((handler) => [handler.kind, handler]));
}
