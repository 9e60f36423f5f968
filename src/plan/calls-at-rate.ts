/** The request budget's configured rate (config rateLimit): `requests` calls per `perSeconds`. */
export interface CallRate {
  requests: number;
  perSeconds: number;
}

/**
 * The calls applying a plan makes and how long they take at the configured rate: the `calls` field of the control
 * API's plan answers, and what every plan view's line says (`callsToApplyLine` formats this, nothing else).
 */
export interface CallsToApply {
  /** Its changes, each a call, and the reads its steps make; what the plan read is spent already. */
  toApply: number;
  /** `toApply` at the configured rate, to a tenth of a second: the rate paces the calls whatever the workers. */
  expectedSeconds: number;
  rate: CallRate;
}

const count = (value: number) => value.toLocaleString('en-US');

/** The one place a plan's call count meets the rate (docs/control-api.md#the-calls-of-a-plan). */
export function callsToApply(calls: number, rate: CallRate): CallsToApply {
  return { toApply: calls, expectedSeconds: Math.round(secondsAtRate(calls, rate) * 10) / 10, rate: { requests: rate.requests, perSeconds: rate.perSeconds } };
}

function secondsAtRate(calls: number, rate: CallRate): number {
  return (calls / rate.requests) * rate.perSeconds;
}

/** A duration in the unit a person reads it in: seconds under 90, minutes under 90, hours above. */
function describeSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${(seconds / 60).toFixed(1)} minutes`;
  return `${(seconds / 3600).toFixed(1)} hours`;
}

/** How long `calls` take at the token's limit of `requests` per `perSeconds` (docs/service.md#rate-limits). */
export function durationAtRate(calls: number, rate: CallRate): string {
  return describeSeconds(secondsAtRate(calls, rate));
}

/**
 * The line every plan view prints under its summary (the CLI's plans, the dashboard's plan pages): the calls applying
 * it will make and how long they take at the configured rate.
 */
export function callsToApplyLine(calls: CallsToApply): string {
  if (calls.toApply === 0) return 'Calls to apply: none';
  return `Calls to apply: about ${count(calls.toApply)} (about ${describeSeconds(calls.expectedSeconds)} at ${calls.rate.requests} calls per ${calls.rate.perSeconds} s, the configured rate)`;
}
