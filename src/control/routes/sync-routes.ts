import { SyncNotAcknowledgedError } from '../../sync/sync-not-acknowledged.js';
import { unlessUnreplicated } from '../unless-unreplicated.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { syncSummary } from '../../sync/sync-report.js';
import type { ControlDeps, ControlSyncDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { manifestBytesOf, manifestFormatOf } from '../manifest-body.js';
import { parseRequestPart, reasonSchema } from '../request-schemas.js';
import { approvalView } from '../requests/approval-view.js';
import { runSyncRequest } from '../requests/sync-request.js';
import { withRedis } from '../with-redis.js';
import { callsToApply } from '../../plan/calls-at-rate.js';
import { syncPlanCalls } from '../../sync/sync-plan-calls.js';

const flag = z.enum(['true', 'false', '1', '0', '']).transform((value) => value === 'true' || value === '1' || value === '').optional();

const syncQuerySchema = z.object({
  /** `--policy`: a lifecycle policy of the server's policy folder (control.syncPolicyDir), by file name. */
  policy: z.string().trim().min(1).max(200),
  /** Names the export (its kept file, the plan and the report), as an uploaded file's name would. Default `hr-export.<format>`. */
  name: z.string().trim().min(1).max(200).optional(),
  /** Plays the role of --accept-missing. */
  acceptMissing: flag,
  /** Plays the role of --yes. */
  confirm: flag,
  /** Plan only, queue nothing (`seatflow sync` without --apply). */
  dryRun: flag,
  reason: reasonSchema,
});

/**
 * `seatflow sync HR_EXPORT --policy P [--apply]` over HTTP: the export is the body, the policy one of the server's
 * policy folder. A thin adapter over the sync's own run (src/sync/run-sync.ts), as the CLI calls it.
 */
export function registerSyncRoutes(app: FastifyInstance, deps: ControlDeps, sync: ControlSyncDeps): void {
  app.post('/v1/syncs', async (request, reply) => {
    const query = parseRequestPart(syncQuerySchema, request.query, 'query');
    const bytes = manifestBytesOf(request.body);
    const format = manifestFormatOf(request.headers['content-type']);
    // Refused as not acknowledged, the run may still be kept: the refusal names it and its plan report.
    const run = await unlessUnreplicated(() => runSyncRequest(deps, sync, {
      bytes,
      name: query.name ?? `hr-export.${format}`,
      policy: query.policy,
      apply: query.dryRun !== true,
      acceptMissing: query.acceptMissing === true,
      confirmed: query.confirm === true,
      actor: request.actor,
      reason: query.reason,
    }), (error) => (error instanceof SyncNotAcknowledgedError ? { runId: error.runId, report: error.report } : {}));
    if (run.kind === 'same-export') return reply.code(200).send({ target: deps.target.label, sameExport: true, previous: run.previous });
    const body = { target: deps.target.label, ...syncSummary(run.plan, run.disposition, run.applied), calls: callsToApply(syncPlanCalls(run.plan), deps.rate), report: run.report };
    const { disposition } = run;
    if (disposition.heldBecause !== undefined) {
      // The CLI's exit 2: nothing changed, and the export is not accepted; what the person confirms to go on.
      throw new ControlError(409, CONTROL_ERROR_CODES.confirmationRequired, `nothing was changed, and the export is not accepted: ${disposition.heldBecause.join('; ')}`, {
        hint: run.plan.missing.broken ? 'If those employees really left, send the same export again with acceptMissing=true.' : 'Send the same export again with confirm=true.',
        details: { sync: body },
      });
    }
    if (disposition.awaitingApproval !== undefined) {
      const id = disposition.awaitingApproval;
      const record = await withRedis(deps, async () => deps.governance?.gate.get(id));
      if (record === undefined) throw new Error(`change request ${id} disappeared from Redis`);
      const approval = approvalView(record, deps.rate);
      return reply.code(202).header('location', approval.links.self).send({ ...body, awaitingApproval: true, created: disposition.requestCreated === true, approval });
    }
    return reply.code(disposition.applied ? 202 : 200).send(body);
  });
}
