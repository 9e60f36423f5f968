import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listSyncPolicies } from '../../requests/sync-policy-file.js';
import { runSyncRequest, syncPlanHash } from '../../requests/sync-request.js';
import { csrfTokenOf } from '../../security/register-security.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { SyncPlan } from '../../../sync/sync-plan.js';
import { syncForm, syncPreviewPage } from '../pages/sync-pages.js';
import { createPreviews } from '../plan-previews.js';
import { createFlash } from '../flash.js';
import { formRefusal, type FormRefusal } from '../form-refusal.js';
import { fieldValue, uploadedFile } from '../upload-fields.js';

const choiceSchema = z.object({ policy: z.string().trim().min(1).max(200), acceptMissing: z.boolean() });

/** A sync a person previewed: the upload, the policy and the confirmation chosen, and the plan shown (and its hash). */
interface SyncPreview {
  bytes: Buffer;
  name: string;
  policy: string;
  acceptMissing: boolean;
  planHash: string;
  plan: SyncPlan;
  session: string | undefined;
}

type SyncValues = { policy: string; acceptMissing: boolean };

/**
 * Start a sync from the page, as `seatflow sync --apply` does: an HR export is uploaded and planned with a policy of
 * the server's policy folder (nothing changes), the plan is shown person by person with the broken-export check and
 * the guardrails, and after an explicit confirmation the sync runs again and queues only if its plan is the one shown,
 * through the approvals gate (runSyncRequest, as POST /v1/syncs). Every post answers with a redirect.
 */
export function registerSyncPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render, redirectWithNotice } = context;
  const sync = deps.sync;
  if (sync === undefined) return;
  const previews = createPreviews<SyncPreview>((preview) => preview.bytes.length * 4);
  const refusals = createFlash<FormRefusal<SyncValues>>();
  const pageOptions = { title: 'Sync from HR', section: 'sync' };
  const backToForm = (request: FastifyRequest, reply: FastifyReply, refusal: FormRefusal<SyncValues>) => reply.redirect(`/syncs/new?done=${refusals.keep(request, refusal)}`, 303);
  const expired = { status: 410, error: { message: 'That plan has expired. Choose the HR export again.' } };
  const previewOf = (request: FastifyRequest) => {
    const id = (request.params as { previewId: string }).previewId;
    const preview = previews.get(id);
    return preview === undefined || preview.session !== request.dashboardSession ? undefined : { id, preview };
  };
  const sameExport = (request: FastifyRequest, reply: FastifyReply, name: string, previous: { acceptedAt: string; runId: string }) =>
    redirectWithNotice(request, reply, '/syncs/new', { kind: 'note', text: `Nothing to do: this export (${name}) was accepted ${previous.acceptedAt} (run ${previous.runId}); the same export again changes nothing.`, links: [{ href: '/upcoming', label: 'Joiners, movers and leavers to come' }] });

  app.get('/syncs/new', session, async (request, reply) => {
    const refusal = refusals.read(request);
    const body = syncForm({
      csrfToken: csrfTokenOf(reply),
      policies: sync.policyDir === undefined ? undefined : await listSyncPolicies(sync.policyDir),
      ...(refusal?.values === undefined ? {} : { values: refusal.values }),
      ...(refusal === undefined ? {} : { error: refusal.error }),
    });
    return render(reply, body, pageOptions, refusal?.status ?? 200);
  });

  app.post('/syncs/new', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values = { policy: fieldValue(body.policy) ?? '', acceptMissing: fieldValue(body.acceptMissing) === 'true' };
    const { bytes, name } = await uploadedFile(body, 'export', 'hr-export.csv');
    if (bytes.length === 0) return backToForm(request, reply, { status: 400, error: { message: 'Choose an HR export first (it was empty or missing).' }, values });
    const parsed = choiceSchema.safeParse(values);
    if (!parsed.success) return backToForm(request, reply, { status: 400, error: { message: 'Choose a lifecycle policy.' }, values });
    try {
      const run = await runSyncRequest(deps, sync, { bytes, name, policy: parsed.data.policy, apply: false, acceptMissing: parsed.data.acceptMissing, confirmed: false, actor: request.actor });
      if (run.kind === 'same-export') return sameExport(request, reply, name, run.previous);
      const previewId = previews.add({ bytes, name, ...parsed.data, planHash: syncPlanHash(run.plan, deps.target.id), plan: run.plan, session: request.dashboardSession });
      return reply.redirect(`/syncs/new/${previewId}`, 303);
    } catch (error) {
      return backToForm(request, reply, { ...formRefusal(error, { withHint: true }), values });
    }
  });

  app.get('/syncs/new/:previewId', session, async (request, reply) => {
    const found = previewOf(request);
    if (found === undefined) return backToForm(request, reply, expired);
    const { name, plan, acceptMissing } = found.preview;
    return render(reply, syncPreviewPage({ previewId: found.id, name, plan, acceptMissing, rate: deps.rate, csrfToken: csrfTokenOf(reply) }), { title: `Sync plan of ${name}`, section: 'sync' });
  });

  app.post('/syncs/new/:previewId/submit', csrf, async (request, reply) => {
    const found = previewOf(request);
    if (found === undefined) return backToForm(request, reply, expired);
    const { id: previewId, preview } = found;
    const values = { policy: preview.policy, acceptMissing: preview.acceptMissing };
    const fields = (request.body ?? {}) as Record<string, unknown>;
    if (fieldValue(fields.confirm) !== 'true') return redirectWithNotice(request, reply, `/syncs/new/${previewId}`, { kind: 'error', text: 'Nothing was started: tick the confirmation box to start the sync.' });
    const reason = fieldValue(fields.reason)?.trim();
    let run;
    try {
      // Planned again now and queued only if the plan is the one shown (else refused: look again).
      run = await runSyncRequest(deps, sync, { ...preview, apply: true, confirmed: true, actor: request.actor, reason: reason === '' ? undefined : reason });
    } catch (error) {
      return backToForm(request, reply, { ...formRefusal(error, { withHint: true }), values });
    }
    previews.delete(previewId);
    if (run.kind === 'same-export') return sameExport(request, reply, preview.name, run.previous);
    const { disposition } = run;
    if (disposition.heldBecause !== undefined) {
      return backToForm(request, reply, { status: 409, error: { message: `Nothing was changed, and the export is not accepted: ${disposition.heldBecause.join('; ')}.` }, values });
    }
    // A sync the approvals policy holds waits for a second person: its page says so.
    if (disposition.awaitingApproval !== undefined) {
      return redirectWithNotice(request, reply, `/approvals/${disposition.awaitingApproval}`, { kind: 'note', text: `Submitted by ${request.actor!.name}: the approvals policy holds this sync until another person approves it. Nothing changed, and the export is not accepted yet.` });
    }
    const applied = run.applied;
    const workflows = [
      applied?.joiners && `Joiners ${applied.joiners.workflowId}${applied.joiners.created ? '' : ' (queued before by the same run)'}`,
      applied?.movers && `Movers ${applied.movers.workflowId}${applied.movers.created ? '' : ' (queued before by the same run)'}`,
      applied?.offboarding && `Offboarding ${applied.offboarding.workflowId}${applied.offboarding.created ? '' : ' (queued before by the same run)'}`,
    ].filter((entry) => entry !== undefined);
    // The people to come are on their page, when this server has it; else the form, for the next export.
    const next = deps.upcoming === undefined ? '/syncs/new' : '/upcoming';
    return redirectWithNotice(request, reply, next, {
      kind: 'ok',
      text: `Sync of ${preview.name} started by ${request.actor!.name}: ${disposition.nothingToChange === true ? 'nothing needed to change' : 'the plan is queued'}, and the export is accepted (run ${disposition.runId}): the next sync compares with it.${workflows.length === 0 ? '' : ' Their steps run on a worker (seatflow worker, or seatflow serve --workers N) on each date.'}`,
      items: workflows.map((text) => ({ text })),
    });
  });
}
