import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { listSyncPolicies } from '../../requests/sync-policy-file.js';
import { runSyncRequest, syncPlanHash } from '../../requests/sync-request.js';
import { csrfTokenOf } from '../../security/register-security.js';
import { toControlError } from '../../to-control-error.js';
import type { DashboardContext } from '../dashboard-context.js';
import { syncForm, syncPreviewPage, syncQueuedPage, syncSameExportPage } from '../pages/sync-pages.js';
import { createPreviews } from '../plan-previews.js';
import { fieldValue, uploadedFile } from '../upload-fields.js';

const choiceSchema = z.object({ policy: z.string().trim().min(1).max(200), acceptMissing: z.boolean() });

/** A sync a person previewed: the upload, the policy and the confirmation chosen, and the hash of the plan shown. */
interface SyncPreview {
  bytes: Buffer;
  name: string;
  policy: string;
  acceptMissing: boolean;
  planHash: string;
}

/**
 * Start a sync from the page, as `seatflow sync --apply` does: an HR export is uploaded and planned with a policy of
 * the server's policy folder (nothing changes), the plan is shown person by person with the broken-export check and
 * the guardrails, and after an explicit confirmation the sync runs again and queues only if its plan is the one shown,
 * through the approvals gate (runSyncRequest, as POST /v1/syncs).
 */
export function registerSyncPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render } = context;
  const sync = deps.sync;
  if (sync === undefined) return;
  const previews = createPreviews<SyncPreview>((preview) => preview.bytes.length);
  const pageOptions = { title: 'Sync from HR', section: 'sync' };
  const form = async (reply: FastifyReply, values?: { policy: string; acceptMissing: boolean }, error?: { message: string; problems?: string[] }) =>
    syncForm({
      csrfToken: csrfTokenOf(reply),
      policies: sync.policyDir === undefined ? undefined : await listSyncPolicies(sync.policyDir),
      ...(values === undefined ? {} : { values }),
      ...(error === undefined ? {} : { error }),
    });
  /** A refusal (a bad export, a policy refused, the service busy, a plan changed): the form again, saying what to do. */
  const refusedForm = async (reply: FastifyReply, error: unknown, values?: { policy: string; acceptMissing: boolean }) => {
    const answer = toControlError(error, false);
    const problems = (answer.details?.problems as Array<{ row: number; field?: string; message: string }> | undefined)?.map(
      (problem) => `row ${problem.row}${problem.field === undefined ? '' : ` ${problem.field}`}: ${problem.message}`,
    );
    const message = answer.message.split('\n', 1)[0] ?? answer.message;
    return render(reply, await form(reply, values, { message: answer.hint === undefined ? message : `${message} ${answer.hint}`, ...(problems === undefined ? {} : { problems }) }), pageOptions, answer.statusCode);
  };

  app.get('/syncs/new', session, async (_request, reply) => render(reply, await form(reply), pageOptions));

  app.post('/syncs/new', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values = { policy: fieldValue(body.policy) ?? '', acceptMissing: fieldValue(body.acceptMissing) === 'true' };
    const { bytes, name } = await uploadedFile(body, 'export', 'hr-export.csv');
    if (bytes.length === 0) return render(reply, await form(reply, values, { message: 'Choose an HR export first (it was empty or missing).' }), pageOptions, 400);
    const parsed = choiceSchema.safeParse(values);
    if (!parsed.success) return render(reply, await form(reply, values, { message: 'Choose a lifecycle policy.' }), pageOptions, 400);
    try {
      const run = await runSyncRequest(deps, sync, { bytes, name, policy: parsed.data.policy, apply: false, acceptMissing: parsed.data.acceptMissing, confirmed: false, actor: request.actor });
      if (run.kind === 'same-export') return render(reply, syncSameExportPage({ name, acceptedAt: run.previous.acceptedAt, runId: run.previous.runId }), pageOptions);
      const previewId = previews.add({ bytes, name, ...parsed.data, planHash: syncPlanHash(run.plan, deps.target.id) });
      return render(reply, syncPreviewPage({ previewId, name, plan: run.plan, acceptMissing: parsed.data.acceptMissing, csrfToken: csrfTokenOf(reply) }), { title: `Sync plan of ${name}`, section: 'sync' });
    } catch (error) {
      return refusedForm(reply, error, values);
    }
  });

  app.post('/syncs/new/:previewId/submit', csrf, async (request, reply) => {
    const preview = previews.get((request.params as { previewId: string }).previewId);
    if (preview === undefined) return render(reply, await form(reply, undefined, { message: 'That plan has expired. Choose the HR export again.' }), pageOptions, 410);
    const fields = (request.body ?? {}) as Record<string, unknown>;
    if (fieldValue(fields.confirm) !== 'true') return render(reply, await form(reply, preview, { message: 'Tick the confirmation box to start the sync.' }), pageOptions, 400);
    const reason = fieldValue(fields.reason)?.trim();
    let run;
    try {
      // Planned again now and queued only if the plan is the one shown (else refused: look again).
      run = await runSyncRequest(deps, sync, { ...preview, apply: true, confirmed: true, actor: request.actor, reason: reason === '' ? undefined : reason });
    } catch (error) {
      return refusedForm(reply, error, preview);
    }
    previews.delete((request.params as { previewId: string }).previewId);
    if (run.kind === 'same-export') return render(reply, syncSameExportPage({ name: preview.name, acceptedAt: run.previous.acceptedAt, runId: run.previous.runId }), pageOptions);
    const { disposition } = run;
    if (disposition.heldBecause !== undefined) {
      return render(reply, await form(reply, preview, { message: `Nothing was changed, and the export is not accepted: ${disposition.heldBecause.join('; ')}.` }), pageOptions, 409);
    }
    // A sync the approvals policy holds waits for a second person: its page says so.
    if (disposition.awaitingApproval !== undefined) return reply.redirect(`/approvals/${disposition.awaitingApproval}`, 303);
    const applied = run.applied;
    const workflows = [
      applied?.joiners && { label: 'Joiners', ...applied.joiners },
      applied?.movers && { label: 'Movers', ...applied.movers },
      applied?.offboarding && { label: 'Offboarding', ...applied.offboarding },
    ].filter((entry) => entry !== undefined);
    return render(reply, syncQueuedPage({ name: preview.name, runId: disposition.runId, workflows, nothingToChange: disposition.nothingToChange === true }), { title: 'Sync queued', section: 'sync' });
  });
}
