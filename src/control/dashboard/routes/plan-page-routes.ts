import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ACTION_NAMES } from '../../../manifest/action.js';
import { detectManifestFormat } from '../../../manifest/manifest-format.js';
import { planWithinDeadline } from '../../requests/plan-within-deadline.js';
import { requireTarget } from '../../requests/require-target.js';
import { submitManifest } from '../../requests/submit-manifest.js';
import { csrfTokenOf } from '../../security/register-security.js';
import type { DashboardContext } from '../dashboard-context.js';
import { formRefusal, type FormRefusal } from '../form-refusal.js';
import { createFlash } from '../flash.js';
import { planForm, planPreviewPage } from '../pages/plan-page.js';
import { createPlanPreviews, type PlanPreview } from '../plan-previews.js';
import { fieldValue, uploadedFile } from '../upload-fields.js';

const uploadSchema = z.object({
  action: z.enum(ACTION_NAMES).optional().catch(undefined),
  skipInvalid: z.literal('true').optional().catch(undefined),
  ignoreColumns: z.string().max(2000).catch(''),
});
const columnsOf = (list: string): string[] => list.split(',').map((name) => name.trim()).filter((name) => name !== '');

/**
 * Plan preview: a manifest is uploaded, planned (changes nothing) and shown with its verdicts and guardrail check;
 * the same bytes are then submitted after an explicit confirmation, as `seatflow submit --yes` would. Every post
 * answers with a redirect: to the preview (a GET of the plan kept for this session), or back to the form with what
 * went wrong.
 */
export function registerPlanPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render } = context;
  const previews = createPlanPreviews();
  const refusals = createFlash<FormRefusal<{ ignoreColumns: string }>>();
  const planPage = { title: 'Plan a manifest', section: 'plan' };
  const backToForm = (request: FastifyRequest, reply: FastifyReply, refusal: FormRefusal<{ ignoreColumns: string }>) => reply.redirect(`/plan?done=${refusals.keep(request, refusal)}`, 303);
  const previewOf = (request: FastifyRequest): { id: string; preview: PlanPreview } | undefined => {
    const id = (request.params as { previewId: string }).previewId;
    const preview = previews.get(id);
    return preview === undefined || preview.session !== request.dashboardSession ? undefined : { id, preview };
  };

  app.get('/plan', session, async (request, reply) => {
    const refusal = refusals.read(request);
    return render(reply, planForm(csrfTokenOf(reply), refusal?.error, refusal?.values), planPage, refusal === undefined ? 200 : refusal.status);
  });

  app.post('/plan', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields = uploadSchema.parse({ action: fieldValue(body.action), skipInvalid: fieldValue(body.skipInvalid), ignoreColumns: fieldValue(body.ignoreColumns) ?? '' });
    const ignoreColumns = columnsOf(fields.ignoreColumns);
    const values = { ignoreColumns: fields.ignoreColumns };
    const { bytes, name } = await uploadedFile(body, 'manifest', 'manifest.csv');
    if (bytes.length === 0) return backToForm(request, reply, { status: 400, error: { message: 'Choose a manifest file first (it was empty or missing).' }, values });
    const format = detectManifestFormat(name, bytes.subarray(0, 4096).toString('utf8'));
    const skipInvalid = fields.skipInvalid === 'true';
    requireTarget(deps);
    try {
      // The same column option as `seatflow plan --ignore-column` and the control API's `?ignoreColumn=`.
      const planned = await planWithinDeadline(deps, { bytes, format, name, api: deps.api, skipInvalid, ignoreColumns, ...(fields.action === undefined ? {} : { defaultAction: fields.action }) });
      const shown = { plan: planned.plan, guardrails: planned.guardrails, warnings: planned.manifest.warnings };
      const previewId = previews.add({ bytes, format, name, action: fields.action, skipInvalid, ignoreColumns, needsConfirmation: planned.guardrails.needsConfirmation, shown, session: request.dashboardSession });
      return reply.redirect(`/plan/${previewId}`, 303);
    } catch (error) {
      // A refused manifest or a busy service: the form again, with what went wrong and each bad row.
      return backToForm(request, reply, { ...formRefusal(error, { withHint: false }), values });
    }
  });

  app.get('/plan/:previewId', session, async (request, reply) => {
    const found = previewOf(request);
    if (found?.preview.shown === undefined) return backToForm(request, reply, { status: 410, error: { message: 'That preview has expired. Choose the manifest again.' }, values: { ignoreColumns: '' } });
    const { name, shown } = found.preview;
    const page = planPreviewPage({ previewId: found.id, name, ...shown, rate: deps.rate, csrfToken: csrfTokenOf(reply) });
    return render(reply, page, { title: `Plan of ${name}`, section: 'plan' });
  });

  app.post('/plan/:previewId/submit', csrf, async (request, reply) => {
    const found = previewOf(request);
    if (found === undefined) return backToForm(request, reply, { status: 410, error: { message: 'That preview has expired. Choose the manifest again.' }, values: { ignoreColumns: '' } });
    const { id: previewId, preview } = found;
    if (fieldValue((request.body as Record<string, unknown> | undefined)?.confirm) !== 'true') {
      return context.redirectWithNotice(request, reply, `/plan/${previewId}`, { kind: 'error', text: 'Nothing was submitted: tick the confirmation box to submit the batch.' });
    }
    const reason = fieldValue((request.body as Record<string, unknown> | undefined)?.reason)?.trim();
    const result = await submitManifest(deps, { bytes: preview.bytes, format: preview.format, name: preview.name, action: preview.action, skipInvalid: preview.skipInvalid, ignoreColumns: preview.ignoreColumns, confirm: true, actor: request.actor, reason: reason === '' ? undefined : reason });
    previews.delete(previewId);
    // A change the approvals policy holds waits for a second person: its page says so and who may approve it.
    if ('awaitingApproval' in result) {
      return context.redirectWithNotice(request, reply, `/approvals/${result.batchId}`, { kind: 'note', text: `Submitted by ${request.actor!.name}: the approvals policy holds this change until another person approves it. Nothing is queued yet.` });
    }
    return context.redirectWithNotice(request, reply, `/batches/${result.batchId}`, { kind: 'ok', text: result.created ? `Submitted by ${request.actor!.name}: ${result.jobsAdded} rows queued.` : 'This manifest was submitted before: this is its batch (nothing was queued twice).' });
  });
}
