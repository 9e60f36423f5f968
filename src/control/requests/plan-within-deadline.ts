import type { PlannedManifest } from '../../plan/plan-manifest.js';
import type { ControlDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { planRequest, type PlanRequestOptions } from './plan-request.js';
import { withTimeout } from '../with-redis.js';
import { parseThreadOf } from '../control-deps.js';

export const DEFAULT_PLAN_TIMEOUT_MS = 20_000;
/** The most rows the control API plans in one request (config control.maxPlanRows). */
export const DEFAULT_MAX_PLAN_ROWS = 50_000;

/**
 * `planRequest`, bounded: a target that keeps answering 503 would otherwise hold the HTTP caller for the client's whole
 * retry budget. Past the deadline the caller gets 503 with Retry-After; nothing was queued or changed.
 */
export async function planWithinDeadline(deps: ControlDeps, options: Omit<PlanRequestOptions, 'guardrails' | 'service' | 'parse' | 'maxPlanRows'>): Promise<PlannedManifest> {
  const timeoutMs = deps.planTimeoutMs ?? DEFAULT_PLAN_TIMEOUT_MS;
  const service = deps.service === undefined ? {} : { service: deps.service };
  const limits = { parse: parseThreadOf(deps), maxPlanRows: deps.maxPlanRows ?? DEFAULT_MAX_PLAN_ROWS };
  return withTimeout(planRequest({ ...options, ...service, ...limits, guardrails: deps.guardrails }), timeoutMs, () =>
    new ControlError(503, CONTROL_ERROR_CODES.targetError, `the target service did not complete the pre-flight within ${Math.round(timeoutMs / 1000)} s`, {
      hint: 'The service is busy or unavailable; send the request again later. Nothing was queued or changed.',
      retryAfterSeconds: 30,
    }),
  );
}
