import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailSchema } from '../../manifest/action.js';
import { parseHold } from '../../workflow/hold-duration.js';
import { formatOffboardingReport } from '../../workflow/offboarding-report.js';
import type { OffboardingSystem } from '../../workflow/offboarding-system.js';
import { leaversColumnChoices } from '../../workflow/leavers-column-choices.js';
import { readLeavers } from '../../workflow/read-leavers.js';
import { workflowIdOf } from '../../workflow/submit-offboarding.js';
import { checkTimeZone } from '../../workflow/zoned-time.js';
import type { ControlDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { manifestBytesOf, manifestFormatOf } from '../manifest-body.js';
import { outcomesQuerySchema, parseRequestPart, reasonSchema, repeatedSchema } from '../request-schemas.js';
import { fingerprintOfOffboarding, offboardingInputOf } from '../../governance/kinds/offboarding-kind.js';
import { auditUndo } from '../../governance/audit/audit-undo.js';
import { approvalView } from '../submit-manifest.js';
import { offboardingNotFound, undoOnTarget } from '../undo-on-target.js';
import { withRedis } from '../with-redis.js';
import { requireTarget } from './plan-routes.js';

/** What the offboarding endpoints use: the workflow over the same Redis and target as the batches. */
export interface ControlOffboardingDeps {
  system: Pick<OffboardingSystem, 'store' | 'plan' | 'submit' | 'status' | 'undo' | 'listHolds' | 'reportRows'>;
  config: Parameters<OffboardingSystem['plan']>[1]['config'];
}

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
    requireTarget(deps);
    const timeZone = query.tz === undefined ? undefined : checkTimeZone(query.tz);
    const holdMs = query.hold === undefined ? offboarding.config.offboarding.defaultHoldDays * 86_400_000 : parseHold(query.hold);
    const columns = leaversColumnChoices({ email: query.emailColumn, leaveDate: query.leaveDateColumn, leaveAt: query.leaveAtColumn, transferTo: query.transferColumn }, query.ignoreColumn ?? []);
    const leaversPath = path.join(path.sep, 'control-api', `leavers.${format}`);
    const file = await readLeavers({
      path: leaversPath,
      content: bytes,
      maxRows: offboarding.config.guardrails.maxRows,
      lastDayEndsAt: offboarding.config.offboarding.lastDayEndsAt,
      ...(timeZone === undefined ? {} : { timeZone }),
      ...(columns === undefined ? {} : { columns }),
    });
    const options = {
      holdMs,
      removeFromSharing: query.removeFromSharing === true,
      ...(query.transferTo === undefined ? {} : { transferTo: query.transferTo }),
      ...(timeZone === undefined ? {} : { timeZone }),
      ...(columns === undefined ? {} : { columns }),
    };
    // The same file with the same options is the same offboarding: found before spending a pre-flight on it.
    const known = await withRedis(deps, () => system.store.get(workflowIdOf({ source: file, options }, deps.target.id)));
    if (known !== undefined && known.state !== 'submitting') {
      return reply.code(200).header('location', `/v1/offboardings/${known.id}`).send({ offboardingId: known.id, created: false, status: await withRedis(deps, () => system.status(known.id)) });
    }
    const plan = await withRedis(deps, () => system.plan(file, { api: deps.batches.api, config: offboarding.config, options }), { timeout: false });
    if (query.dryRun === true) return reply.code(200).send({ target: deps.target.label, plan });
    if (plan.guardrails.needsConfirmation && query.confirm !== true) {
      throw new ControlError(409, CONTROL_ERROR_CODES.confirmationRequired, `refused: ${plan.guardrails.reasons.join('; ')}`, {
        hint: 'Check the plan (?dryRun=true), then send the same file again with ?confirm=true. Nothing was queued.',
        details: { guardrails: plan.guardrails },
      });
    }
    const governance = deps.governance;
    let submitted: Awaited<ReturnType<typeof system.submit>> | undefined;
    const queue = async () => (submitted = await withRedis(deps, () => system.submit(plan), { timeout: false }));
    if (governance !== undefined) {
      const gated = await withRedis(
        deps,
        () =>
          governance.gate.submit(
            {
              kind: 'offboarding',
              id: workflowIdOf(plan, deps.target.id),
              subject: plan.source.path,
              target: deps.target.id,
              sim: deps.target.sim,
              plan: fingerprintOfOffboarding(plan),
              guardrails: plan.guardrails.reasons,
              input: offboardingInputOf(leaversPath, bytes, plan.options),
              requestedBy: request.actor ?? governance.operators.byToken(deps.token)!,
              reason: query.reason,
            },
            async () => {
              const done = await queue();
              return { id: done.workflow.id, created: done.created };
            },
          ),
        { timeout: false },
      );
      if (gated.status === 'awaiting-approval') {
        const approval = approvalView(gated.request);
        return reply.code(202).header('location', approval.links.self).send({ offboardingId: approval.id, awaitingApproval: true, created: gated.created, approval, plan });
      }
    }
    const { workflow, created } = submitted ?? (await queue());
    return reply
      .code(created ? 202 : 200)
      .header('location', `/v1/offboardings/${workflow.id}`)
      .send({ offboardingId: workflow.id, created, plan, status: await withRedis(deps, () => system.status(workflow.id)) });
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
    const by = request.actor === undefined || request.actor.name === body.data.by ? `${body.data.by} (control API)` : `${body.data.by} (control API, as ${request.actor.name})`;
    const results = await undoOnTarget(deps, offboarding, id, { by, ...(body.data.users === undefined ? {} : { users: body.data.users }) });
    if (deps.governance !== undefined) await withRedis(deps, () => auditUndo(deps.governance!.audit, { workflowId: id, by: request.actor?.name ?? by, reason: body.data.reason, results }));
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
