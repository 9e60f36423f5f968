import type { FastifyInstance } from 'fastify';
import type { ControlDeps } from '../control-deps.js';
import { manifestBytesOf, manifestFormatOf } from '../manifest-body.js';
import { planWithinDeadline } from '../requests/plan-within-deadline.js';
import { parseRequestPart, planQuerySchema } from '../request-schemas.js';
import { requireTarget } from '../requests/require-target.js';
import { batchPlanCalls } from '../../plan/batch-plan-calls.js';
import { callsToApply } from '../../plan/calls-at-rate.js';

/**
 * POST /v1/plans: `seatflow plan --json` over HTTP, with the calls applying it makes at the configured rate (`calls`,
 * what the CLI's plan prints as its "Calls to apply" line). Validates and pre-flights the body; changes nothing.
 */
export function registerPlanRoutes(app: FastifyInstance, deps: ControlDeps): void {
  app.post('/v1/plans', async (request) => {
    const query = parseRequestPart(planQuerySchema, request.query, 'query');
    const bytes = manifestBytesOf(request.body);
    const format = manifestFormatOf(request.headers['content-type']);
    requireTarget(deps);
    const { plan, guardrails, manifest } = await planWithinDeadline(deps, {
      bytes,
      format,
      api: deps.api,
      skipInvalid: query.skipInvalid === true,
      ...(query.action === undefined ? {} : { defaultAction: query.action }),
      ...(query.name === undefined ? {} : { name: query.name }),
      ...(query.ignoreColumn === undefined ? {} : { ignoreColumns: query.ignoreColumn }),
    });
    return { target: deps.target.label, ...plan, calls: callsToApply(batchPlanCalls(plan), deps.rate), guardrails, warnings: manifest.warnings };
  });
}
