import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailSchema } from '../../manifest/action.js';
import { formatOffboardingReport } from '../../workflow/offboarding-report.js';
import { leaversColumnChoices } from '../../workflow/leavers-column-choices.js';
import type { ControlDeps, ControlOffboardingDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError, offboardingNotFound } from '../control-error.js';
import { manifestBytesOf, manifestFormatOf } from '../manifest-body.js';
import { outcomesQuerySchema, parseRequestPart, reasonSchema, repeatedSchema } from '../request-schemas.js';
import { submitOffboardingRequest } from '../requests/submit-offboarding-request.js';
import { undoOnTarget } from '../requests/undo-on-target.js';
import { planOffboardingRequest } from '../requests/plan-offboarding-request.js';
import { withRedis } from '../with-redis.js';
import { unlessUnreplicated } from '../unless-unreplicated.js';
import { workflowIdOf } from '../../workflow/submit-offboarding.js';
import { callsToApply } from '../../plan/calls-at-rate.js';
import { leaverCalls } from '../../workflow/leaver-calls.js';

const flag = z.enum(['true', 'false', '1', '0', '']).transform((value) => value === 'true' || value === '1' || value === '').optional();

const submitQuerySchema = z.object({
  hold: z.string().optional(),
  transferTo: emailSchema.optional(),
  removeFromSharing: flag,
  tz: z.string().optional(),
  /** --leave-date-column, --leave-at-column, --transfer-column, --email-column, --ignore-column (repeated). */
  leaveDateColumn: z.string().optional(),
  leaveAtColumn: z.string().optional(),
  transferColumn: z.string().optional(),
  emailColumn: z.string().optional(),
  ignoreColumn: repeatedSchema,
  /** Names the offboarding (and its step batches), as an uploaded file's name would. Default `leavers.<format>`. */
  name: z.string().trim().min(1).max(200).optional(),
  /** Plays the role of --no-undo-window: a hold below offboarding.minHoldHours is accepted. */
  noUndoWindow: flag,
  /** Plays the role of --yes. */
  confirm: flag,
  /** Plan only, queue nothing (like --dry-run). */
  dryRun: flag,
  reason: reasonSchema,
});
const paramsSchema = z.object({ id: z.string().regex(/^o[0-9a-f]{12}$/) });
const undoBodySchema = z.object({ users: z.array(emailSchema).min(1).optional(), by: z.string().trim().min(1).max(200), reason: z.string().trim().min(1).max(500).optional() });

/**
 * `seatflow offboard`, `status` and `undo` over HTTP, and the list of holds undo can still act on (for the dashboard).
 * A thin adapter over the same workflow functions as the CLI.
 */
export function registerOffboardingRoutes(app: FastifyInstance, deps: ControlDeps, offboarding: ControlOffboardingDeps): void {
  const { system } = offboarding;
  const workflowId = (params: unknown): string => {
    const parsed = paramsSchema.safeParse(params);
    if (!parsed.success) throw offboardingNotFound(String((params as { id?: unknown }).id));
    return parsed.data.id;
  };

  app.post('/v1/offboardings', async (request, reply) => {
    const query = parseRequestPart(submitQuerySchema, request.query, 'query');
    const bytes = manifestBytesOf(request.body);
    const format = manifestFormatOf(request.headers['content-type']);
    const planned = await planOffboardingRequest(deps, offboarding, {
      bytes,
      name: query.name ?? `leavers.${format}`,
      hold: query.hold,
      transferTo: query.transferTo,
      removeFromSharing: query.removeFromSharing === true,
      tz: query.tz,
      noUndoWindow: query.noUndoWindow === true,
      columns: leaversColumnChoices({ email: query.emailColumn, leaveDate: query.leaveDateColumn, leaveAt: query.leaveAtColumn, transferTo: query.transferColumn }, query.ignoreColumn ?? []),
    });
    // The same file with the same options is the same offboarding: found before spending a pre-flight on it.
    if ('known' in planned) {
      const { known } = planned;
      return reply.code(200).header('location', `/v1/offboardings/${known.id}`).send({ offboardingId: known.id, created: false, status: await withRedis(deps, () => system.status(known.id)) });
    }
    const { plan } = planned;
    // Beside every answer's plan, as `seatflow offboard` prints it under its plan.
    const calls = callsToApply(leaverCalls(plan.leavers), deps.rate);
    if (query.dryRun === true) return reply.code(200).send({ target: deps.target.label, plan, calls });
    if (plan.guardrails.needsConfirmation && query.confirm !== true) {
      throw new ControlError(409, CONTROL_ERROR_CODES.confirmationRequired, `refused: ${plan.guardrails.reasons.join('; ')}`, {
        hint: 'Check the plan (?dryRun=true), then send the same file again with ?confirm=true. Nothing was queued.',
        details: { guardrails: plan.guardrails },
      });
    }
    const result = await unlessUnreplicated(
      () => submitOffboardingRequest(deps, offboarding, { plan, bytes, name: query.name ?? `leavers.${format}`, actor: request.actor, reason: query.reason }),
      () => ({ offboardingId: workflowIdOf(plan, deps.target.id), plan, calls }),
    );
    if ('awaitingApproval' in result) {
      const approval = result.awaitingApproval;
      return reply.code(202).header('location', approval.links.self).send({ offboardingId: approval.id, awaitingApproval: true, created: result.created, approval, plan, calls });
    }
    const { workflow, created } = result;
    return reply
      .code(created ? 202 : 200)
      .header('location', `/v1/offboardings/${workflow.id}`)
      .send({ offboardingId: workflow.id, created, plan, calls, status: await withRedis(deps, () => system.status(workflow.id)) });
  });

  app.get('/v1/offboardings/:id', async (request) => {
    const id = workflowId(request.params);
    const status = await withRedis(deps, () => system.status(id));
    if (status === undefined) throw offboardingNotFound(id);
    return status;
  });

  app.get('/v1/offboardings/:id/report', async (request, reply) => {
    const { format } = parseRequestPart(outcomesQuerySchema, request.query, 'query');
    const id = workflowId(request.params);
    const rows = await withRedis(deps, () => system.reportRows(id));
    if (rows === undefined) throw offboardingNotFound(id);
    return reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${id}.${format}"`)
      .send(formatOffboardingReport(rows, format));
  });

  app.post('/v1/offboardings/:id/undo', async (request) => {
    const id = workflowId(request.params);
    const body = undoBodySchema.safeParse(parseJson(request.body));
    if (!body.success) {
      throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, `bad request: ${body.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`, {
        hint: 'Send JSON {"by": "who is undoing", "users": ["leaver@example.com"]} (users optional: all leavers).',
      });
    }
    // The offboarding records who the caller says undid it; the audit trail who was authenticated.
    const results = await undoOnTarget(deps, offboarding, id, {
      by: request.actor?.name ?? body.data.by,
      via: 'control API',
      reason: body.data.reason ?? `for ${body.data.by}`,
      recordedAs: `${body.data.by} (control API)`,
      ...(body.data.users === undefined ? {} : { users: body.data.users }),
    });
    return { offboardingId: id, results };
  });

  app.get('/v1/holds', async () => ({ holds: await withRedis(deps, () => system.listHolds()) }));
}

function parseJson(body: unknown): unknown {
  if (!Buffer.isBuffer(body)) return body ?? {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
