import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { APPROVAL_STATES } from '../../governance/approvals/approval-record.js';
import { AUDIT_EXPORT_FORMATS, auditExportLines, entriesWithin, parseAuditTime, streamRangeOf } from '../../governance/audit/audit-export.js';
import { verifyStoredLog } from '../../governance/audit/verify-audit.js';
import type { ControlDeps, ControlGovernanceDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { changeRequestParamsSchema, parseRequestPart, reasonSchema, repeatedSchema } from '../request-schemas.js';
import { approvalView } from '../requests/approval-view.js';
import { withRedis } from '../with-redis.js';
import { approveOnTarget } from '../requests/approve-on-target.js';

const listSchema = z.object({ state: repeatedSchema.pipe(z.array(z.enum(APPROVAL_STATES)).optional()), limit: z.coerce.number().int().min(1).max(500).default(50) });
const approveSchema = z.object({ planHash: z.string().regex(/^[0-9a-f]{64}$/).optional(), reason: reasonSchema });
const rejectSchema = z.object({ reason: z.string().trim().min(1).max(500) });
const auditQuerySchema = z.object({ from: z.string().optional(), to: z.string().optional(), format: z.enum(AUDIT_EXPORT_FORMATS).default('jsonl') });
const deliveriesSchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });

/**
 * `seatflow approve`, `reject` and `audit` over HTTP: the change requests waiting (and decided), approving (approver
 * role; never the requester) and rejecting, the audit trail for a date range and its verification, and the record of
 * notification deliveries.
 */
export function registerGovernanceRoutes(app: FastifyInstance, deps: ControlDeps, governance: ControlGovernanceDeps): void {
  const idOf = (params: unknown): string => {
    const parsed = changeRequestParamsSchema.safeParse(params);
    if (!parsed.success) throw new ControlError(404, CONTROL_ERROR_CODES.approvalNotFound, `no change request ${String((params as { id?: unknown }).id)}`, { hint: 'List them with GET /v1/approvals.' });
    return parsed.data.id;
  };

  app.get('/v1/approvals', async (request) => {
    const query = parseRequestPart(listSchema, request.query, 'query');
    const list = await withRedis(deps, () => governance.approvals.list({ limit: query.limit, ...(query.state === undefined ? {} : { states: query.state }) }));
    return { approvals: list.map((record) => approvalView(record, deps.rate)) };
  });

  app.get('/v1/approvals/:id', async (request) => {
    const id = idOf(request.params);
    const record = await withRedis(deps, () => governance.gate.get(id));
    if (record === undefined) throw new ControlError(404, CONTROL_ERROR_CODES.approvalNotFound, `no change request ${id}`, { hint: 'List them with GET /v1/approvals.' });
    return { ...approvalView(record, deps.rate), plan: await withRedis(deps, () => governance.approvals.lines(id)) };
  });

  app.post('/v1/approvals/:id/approve', { config: { role: 'approver' } }, async (request) => {
    const id = idOf(request.params);
    const query = parseRequestPart(approveSchema, request.query, 'query');
    const answer = await approveOnTarget(deps, governance, id, request.actor!, query);
    if (answer.status === 'queued') return answer;
    // Not a success: nothing ran. The caller looks at the new plan and approves its hash, or rejects it.
    throw new ControlError(409, CONTROL_ERROR_CODES.planStale, `the plan of ${id} went stale before it ran (live state changed): nothing ran, and it waits for approval of the new plan`, {
      hint: `Look at the new plan (GET /v1/approvals/${id}), then approve it with ?planHash=${answer.approval.planHash}, or reject it.`,
      details: { planHash: answer.approval.planHash, difference: answer.difference, approval: answer.approval },
    });
  });

  app.post('/v1/approvals/:id/reject', async (request) => {
    const id = idOf(request.params);
    const { reason } = parseRequestPart(rejectSchema, request.query, 'query');
    return approvalView(await withRedis(deps, () => governance.gate.reject(id, request.actor!, reason)), deps.rate);
  });

  app.get('/v1/audit', async (request, reply) => {
    const query = parseRequestPart(auditQuerySchema, request.query, 'query');
    let range;
    try {
      range = { ...(query.from === undefined ? {} : { fromMs: parseAuditTime(query.from, 'from') }), ...(query.to === undefined ? {} : { toMs: parseAuditTime(query.to, 'to') }) };
    } catch (error) {
      throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, (error as Error).message);
    }
    const entries = entriesWithin(governance.audit.entries(streamRangeOf(range)), range);
    return reply
      .header('content-type', query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="seatflow-audit.${query.format}"`)
      .send(Readable.from(auditExportLines(entries, query.format)));
  });

  app.get('/v1/audit/verify', async () => {
    return withRedis(deps, () => verifyStoredLog(governance.audit, governance.pendingRowEntries));
  });

  app.get('/v1/notifications/deliveries', async (request) => {
    const { limit } = parseRequestPart(deliveriesSchema, request.query, 'query');
    return { deliveries: await withRedis(deps, () => governance.deliveries.latest(limit)) };
  });
}
