import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ACTION_NAMES } from '../../../manifest/action.js';
import { detectManifestFormat } from '../../../manifest/manifest-format.js';
import { planWithinDeadline } from '../../requests/plan-within-deadline.js';
import { requireTarget } from '../../requests/require-target.js';
import { submitManifest } from '../../requests/submit-manifest.js';
import { toControlError } from '../../to-control-error.js';
import { csrfTokenOf } from '../../security/register-security.js';
import type { DashboardContext } from '../dashboard-context.js';
import { planForm, planPreviewPage } from '../pages/plan-page.js';
import { createPlanPreviews } from '../plan-previews.js';
import { fieldValue, uploadedFile } from '../upload-fields.js';

const uploadSchema = z.object({
  action: z.enum(ACTION_NAMES).optional().catch(undefined),
  skipInvalid: z.literal('true').optional().catch(undefined),
  ignoreColumns: z.string().max(2000).catch(''),
});
const columnsOf = (list: string): string[] => list.split(',').map((name) => name.trim()).filter((name) => name !== '');

/**
 * Plan preview: a manifest is uploaded, planned (changes nothing) and shown with its verdicts and guardrail check;
 * the same bytes are then submitted after an explicit confirmation, as `seatflow submit --yes` would.
 */
export function registerPlanPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render } = context;
  const previews = createPlanPreviews();
  const planPage = { title: 'Plan a manifest', section: 'plan' };

  app.get('/plan', session, async (_request, reply) => render(reply, planForm(csrfTokenOf(reply)), planPage));

  app.post('/plan', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields = uploadSchema.parse({ action: fieldValue(body.action), skipInvalid: fieldValue(body.skipInvalid), ignoreColumns: fieldValue(body.ignoreColumns) ?? '' });
    const ignoreColumns = columnsOf(fields.ignoreColumns);
    const values = { ignoreColumns: fields.ignoreColumns };
    const { bytes, name } = await uploadedFile(body, 'manifest', 'manifest.csv');
    if (bytes.length === 0) return render(reply, planForm(csrfTokenOf(reply), { message: 'Choose a manifest file first (it was empty or missing).' }, values), planPage, 400);
    const format = detectManifestFormat(name, bytes.subarray(0, 4096).toString('utf8'));
    const skipInvalid = fields.skipInvalid === 'true';
    requireTarget(deps);
    try {
      // The same column option as `seatflow plan --ignore-column` and the control API's `?ignoreColumn=`.
      const planned = await planWithinDeadline(deps, { bytes, format, name, api: deps.api, skipInvalid, ignoreColumns, ...(fields.action === undefined ? {} : { defaultAction: fields.action }) });
      const previewId = previews.add({ bytes, format, name, action: fields.action, skipInvalid, ignoreColumns, needsConfirmation: planned.guardrails.needsConfirmation });
      const page = planPreviewPage({ previewId, name, plan: planned.plan, guardrails: planned.guardrails, warnings: planned.manifest.warnings, csrfToken: csrfTokenOf(reply) });
      return render(reply, page, { title: `Plan of ${name}`, section: 'plan' });
    } catch (error) {
      // A refused manifest or a busy service: the form again, with what went wrong and each bad row.
      const answer = toControlError(error, false);
      const problems = (answer.details?.problems as Array<{ row: number; field?: string; message: string }> | undefined)?.map(
        (problem) => `row ${problem.row}${problem.field === undefined ? '' : ` ${problem.field}`}: ${problem.message}`,
      );
      const message = answer.message.split('\n', 1)[0] ?? answer.message;
      return render(reply, planForm(csrfTokenOf(reply), { message, ...(problems === undefined ? {} : { problems }) }, values), planPage, answer.statusCode);
    }
  });

  app.post('/plan/:previewId/submit', csrf, async (request, reply) => {
    const previewId = (request.params as { previewId: string }).previewId;
    const preview = previews.get(previewId);
    if (preview === undefined) return render(reply, planForm(csrfTokenOf(reply), { message: 'That preview has expired. Choose the manifest again.' }), planPage, 410);
    if (fieldValue((request.body as Record<string, unknown> | undefined)?.confirm) !== 'true') {
      return render(reply, planForm(csrfTokenOf(reply), { message: 'Tick the confirmation box to submit the batch.' }), planPage, 400);
    }
    const reason = fieldValue((request.body as Record<string, unknown> | undefined)?.reason)?.trim();
    const result = await submitManifest(deps, { bytes: preview.bytes, format: preview.format, name: preview.name, action: preview.action, skipInvalid: preview.skipInvalid, ignoreColumns: preview.ignoreColumns, confirm: true, actor: request.actor, reason: reason === '' ? undefined : reason });
    previews.delete(previewId);
    // A change the approvals policy holds waits for a second person: its page says so and who may approve it.
    return reply.redirect('awaitingApproval' in result ? `/approvals/${result.batchId}` : `/batches/${result.batchId}`, 303);
  });
}
