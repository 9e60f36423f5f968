/** The request budget's configured rate (config rateLimit): `requests` calls per `perSeconds`. */
export interface CallRate {
  requests: number;
  perSeconds: number;
}

const count = (value: number) => value.toLocaleString('en-US');

/** How long `calls` take at the token's limit of `requests` per `perSeconds` (docs/service.md#rate-limits). */
export function durationAtRate(calls: number, rate: CallRate): string {
  const seconds = (calls / rate.requests) * rate.perSeconds;
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${(seconds / 60).toFixed(1)} minutes`;
  return `${(seconds / 3600).toFixed(1)} hours`;
}

/**
 * The line every plan view prints under its summary: the calls applying it will make (its changes, each a call, and
 * the reads its steps make) and how long they take at the configured rate, which paces them whatever the workers.
 */
export function callsToApplyLine(calls: number, rate: CallRate): string {
  if (calls === 0) return 'Calls to apply: none';
  return `Calls to apply: about ${count(calls)} (about ${durationAtRate(calls, rate)} at ${rate.requests} calls per ${rate.perSeconds} s, the configured rate)`;
}
