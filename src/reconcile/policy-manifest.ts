import type { SeatDecision } from './evaluate-policy.js';

/**
 * The decisions that need a change, as a JSON manifest of downgrade / upgrade rows (row i+1 = changes[i]), so that
 * a policy run goes through the same pre-flight, verdicts and batch machinery as a hand-written manifest.
 */
export function policyManifest(changes: readonly SeatDecision[], planId: number): Buffer {
  const rows = changes.map((decision) => ({ action: decision.action, email: decision.email, planId: String(planId), seatType: decision.seatAfter }));
  return Buffer.from(`${JSON.stringify({ version: 1, rows }, null, 1)}\n`, 'utf8');
}
