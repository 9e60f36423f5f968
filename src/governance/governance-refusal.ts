import { UsageError } from '../core/seatflow-error.js';

/**
 * A governance rule said no: the submitter approving their own change, a role too low, a request already decided. The
 * CLI exits 2 (nothing was done); the control API answers 403, 409 or 404 by `kind`.
 */
export class GovernanceRefusal extends UsageError {
  readonly kind: 'forbidden' | 'conflict' | 'not-found';

  constructor(kind: GovernanceRefusal['kind'], message: string, hint?: string) {
    super(message, hint);
    this.kind = kind;
  }
}
