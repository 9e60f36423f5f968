import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AUDIT_EVENTS, auditEntrySchema, type AuditEntry } from '../../../governance/audit/audit-entry.js';
import { AUDIT_EXPORT_FORMATS, auditExportLines, entriesWithin, parseAuditTime, streamRangeOf } from '../../../governance/audit/audit-export.js';
import { verifyStoredLog } from '../../../governance/audit/verify-audit.js';
import type { ApprovalRecord } from '../../../governance/approvals/approval-record.js';
import { offboardingInputSchema } from '../../../governance/kinds/offboarding-kind.js';
import { hasRole, samePerson, type Actor } from '../../../governance/operators/actor.js';
import { approveOnTarget } from '../../requests/approve-on-target.js';
import { csrfTokenOf } from '../../security/register-security.js';
import { CONTROL_ERROR_CODES, ControlError } from '../../control-error.js';
import type { ControlGovernanceDeps } from '../../control-deps.js';
import { withRedis } from '../../with-redis.js';
import { changeRequestParamsSchema } from '../../request-schemas.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { Notice } from '../notice.js';
import { approvalPage, approvalsLive, approvalsPage, type ApprovalPageView } from '../pages/approvals-page.js';
import { auditPage, type AuditFilter } from '../pages/audit-page.js';
import { notAvailablePage } from '../pages/not-available-page.js';

const PAGE = 50;
const approveForm = z.object({ planHash: z.string().regex(/^[0-9a-f]{64}$/), confirm: z.literal('true'), reason: z.string().trim().max(500).optional() });
const rejectForm = z.object({ reason: z.string().trim().min(1).max(500) });
const auditQuery = z.object({
  before: z.string().regex(/^\d+-\d+$/).optional(),
  verify: z.literal('1').optional(),
  actor: z.string().trim().max(200).optional(),
  event: z.enum(AUDIT_EVENTS).or(z.literal('')).optional(),
  subject: z.string().trim().max(200).optional(),
  user: z.string().trim().toLowerCase().max(320).optional(),
});
/** How far back a filter reads for one page of matches (the export reads everything). */
const SCAN_LIMIT = 5000;
const exportQuery = z.object({ from: z.string().optional(), to: z.string().optional(), format: z.enum(AUDIT_EXPORT_FORMATS).default('jsonl') });

/**
 * The approvals (what waits, one request with its plan and the approve and reject forms) and the audit trail (newest
 * first, the chain checked on request, exports): through the same gate and log as the CLI and /v1.
 */
export function registerGovernancePageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render, fragment, redirectWithNotice } = context;
  const governance = deps.governance;
  if (governance === undefined) {
    for (const [path, title] of [['/approvals', 'Approvals'], ['/audit', 'Audit trail']] as const) {
      app.get(path, session, async (_request, reply) => render(reply, notAvailablePage(title, 'it was started without governance (operators, approvals, audit).'), { title, section: path.slice(1) }, 404));
    }
    return;
  }

  const lists = () =>
    withRedis(deps, async () => ({
      waiting: await governance.approvals.list({ states: ['awaiting-approval', 'approved'], limit: 100 }),
      decided: await governance.approvals.list({ states: ['queued', 'rejected'], limit: 20 }),
    }));
  app.get('/approvals', session, async (_request, reply) => {
    const { waiting, decided } = await lists();
    return render(reply, approvalsPage(waiting, decided), { title: 'Approvals', section: 'approvals' });
  });
  app.get('/approvals/live', session, async (_request, reply) => {
    const { waiting, decided } = await lists();
    return fragment(reply, approvalsLive(waiting, decided));
  });

  const recordOf = async (request: FastifyRequest): Promise<ApprovalRecord> => {
    const parsed = changeRequestParamsSchema.safeParse(request.params);
    const record = parsed.success ? await withRedis(deps, () => governance.gate.get(parsed.data.id)) : undefined;
    if (record === undefined) throw new ControlError(404, CONTROL_ERROR_CODES.approvalNotFound, 'no such change request', { hint: 'See what waits on the approvals page.' });
    return record;
  };
  const viewOf = async (request: FastifyRequest, record: ApprovalRecord, csrfToken: string): Promise<ApprovalPageView> => {
    const actor = request.actor!;
    const cannotApprove = whyNotApprove(actor, record, deps.target.id);
    const mine = samePerson(actor.name, record.requestedBy.name);
    const cannotReject = mine || hasRole(actor, 'approver') ? undefined : 'Rejecting needs the approver role.';
    const input = record.kind === 'offboarding' ? offboardingInputSchema.safeParse(await withRedis(deps, () => governance.approvals.input(record.id))) : undefined;
    return {
      record,
      lines: await withRedis(deps, () => governance.approvals.lines(record.id)),
      rate: deps.rate,
      ...(input?.success === true ? { offboarding: { holdMs: input.data.options.holdMs, timeZone: input.data.options.timeZone } } : {}),
      ...(cannotApprove === undefined ? {} : { cannotApprove }),
      ...(cannotReject === undefined ? {} : { cannotReject }),
      csrfToken,
    };
  };

  app.get('/approvals/:id', session, async (request, reply) => {
    const record = await recordOf(request);
    return render(reply, approvalPage(await viewOf(request, record, csrfTokenOf(reply))), { title: `Approval ${record.id}`, section: 'approvals' });
  });

  // Approving needs only the approver role to reach the gate, which refuses the requester with the reason.
  app.post('/approvals/:id/approve', { ...csrf, config: { ...csrf.config, role: 'approver' } }, async (request, reply) => {
    const record = await recordOf(request);
    const back = `/approvals/${record.id}`;
    const form = approveForm.safeParse(request.body ?? {});
    if (!form.success) return redirectWithNotice(request, reply, back, { kind: 'error', text: 'Nothing was approved: tick the confirmation box to approve this plan.' });
    const reason = form.data.reason === '' ? undefined : form.data.reason;
    const answer = await approveOnTarget(deps, governance, record.id, request.actor!, { planHash: form.data.planHash, reason });
    const notice: Notice =
      answer.status === 'queued'
        ? { kind: 'ok', text: `Approved by ${request.actor!.name}: planned again against live state, the plan is the one approved; queued as ${answer.id}.`, links: [{ href: `/${answer.id.startsWith('o') ? 'offboardings' : 'batches'}/${answer.id}`, label: 'Follow it' }] }
        : { kind: 'error', text: `Not approved: the plan went stale before it ran (live state changed). Nothing ran; it waits for approval of the new plan (${answer.approval.planHash.slice(0, 16)}…). What differs is below.` };
    return redirectWithNotice(request, reply, back, notice);
  });

  app.post('/approvals/:id/reject', csrf, async (request, reply) => {
    const record = await recordOf(request);
    const back = `/approvals/${record.id}`;
    const form = rejectForm.safeParse(request.body ?? {});
    if (!form.success) return redirectWithNotice(request, reply, back, { kind: 'error', text: 'Nothing was rejected: a rejection needs a reason.' });
    await withRedis(deps, () => governance.gate.reject(record.id, request.actor!, form.data.reason));
    return redirectWithNotice(request, reply, back, { kind: 'ok', text: `Rejected by ${request.actor!.name}. Nothing was changed.` });
  });

  app.get('/audit', session, async (request, reply) => {
    const query = auditQuery.safeParse(request.query ?? {});
    const { before, verify, ...given } = query.success ? query.data : {};
    const filter = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value !== '')) as AuditFilter;
    const found = await withRedis(deps, () => findEntries(governance, filter, before));
    const head = await withRedis(deps, () => governance.audit.head());
    const verification = verify === '1' ? await verifyStoredLog(governance.audit, governance.pendingRowEntries) : undefined;
    return render(reply, auditPage({ ...found, filter, head, ...(verification === undefined ? {} : { verification }) }), { title: 'Audit trail', section: 'audit' });
  });

  app.get('/audit/export', session, async (request, reply) => {
    const query = exportQuery.safeParse(request.query ?? {});
    if (!query.success) throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, 'the export form was not understood', { hint: 'Choose dates and a format on the audit page.' });
    let range;
    try {
      const { from, to } = query.data;
      range = { ...(from === undefined || from === '' ? {} : { fromMs: parseAuditTime(from, 'from') }), ...(to === undefined || to === '' ? {} : { toMs: parseAuditTime(to, 'to') }) };
    } catch (error) {
      throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, (error as Error).message);
    }
    const { format } = query.data;
    return reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="seatflow-audit.${format}"`)
      .send(Readable.from(auditExportLines(entriesWithin(governance.audit.entries(streamRangeOf(range)), range), format)));
  });
}

/** Why this person cannot approve this request here; undefined when they can. */
function whyNotApprove(actor: Actor, record: ApprovalRecord, target: string): string | undefined {
  if (samePerson(actor.name, record.requestedBy.name)) return 'You asked for this change: another approver must decide (a change needs a second person). You may withdraw it by rejecting it.';
  if (!hasRole(actor, 'approver')) return `Approving needs the approver role; you are ${actor.name} (${actor.role}).`;
  if (record.target !== target) return `It was asked for ${record.target}: approve it where it can be planned again (seatflow approve against that target).`;
  return undefined;
}

/** Whether an entry matches every part of the filter (a user: any e-mail its facts name). */
function matches(entry: AuditEntry, filter: AuditFilter): boolean {
  if (filter.actor !== undefined && entry.actor !== filter.actor) return false;
  if (filter.event !== undefined && entry.event !== filter.event) return false;
  if (filter.subject !== undefined && entry.subject !== filter.subject) return false;
  if (filter.user !== undefined && !JSON.stringify(entry.data).toLowerCase().includes(`"${filter.user}"`)) return false;
  return true;
}

/**
 * One page of the newest entries that match, read back in slices from `before`: at most SCAN_LIMIT entries are read
 * for a page, and the link to older ones goes on from the last entry read.
 */
async function findEntries(governance: ControlGovernanceDeps, filter: AuditFilter, before: string | undefined) {
  const entries: Array<{ id: string; entry: AuditEntry }> = [];
  let from = before;
  let scanned = 0;
  for (;;) {
    const slice = await governance.audit.latest(200, from);
    for (const { id, raw } of slice) {
      if (entries.length === PAGE) return { entries, scanned, olderFrom: entries[entries.length - 1]!.id };
      scanned += 1;
      const entry = auditEntrySchema.parse(JSON.parse(raw));
      if (matches(entry, filter)) entries.push({ id, entry });
    }
    from = slice.at(-1)?.id;
    if (slice.length < 200 || from === undefined) return { entries, scanned };
    if (scanned >= SCAN_LIMIT) return { entries, scanned, olderFrom: from };
  }
}
