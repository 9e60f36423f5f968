import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { emailSchema } from '../../../manifest/action.js';
import { leaversColumnChoices } from '../../../workflow/leavers-column-choices.js';
import type { OffboardingPlan } from '../../../workflow/plan-offboarding.js';
import { planOffboardingRequest } from '../../requests/plan-offboarding-request.js';
import { submitOffboardingRequest } from '../../requests/submit-offboarding-request.js';
import { csrfTokenOf } from '../../security/register-security.js';
import type { DashboardContext } from '../dashboard-context.js';
import { offboardForm, offboardPreviewPage, type OffboardFormValues } from '../pages/offboard-pages.js';
import { createPreviews } from '../plan-previews.js';
import { createFlash } from '../flash.js';
import { formRefusal, type FormRefusal } from '../form-refusal.js';
import { fieldValue, uploadedFile } from '../upload-fields.js';

const optionsSchema = z.object({
  hold: z.string().trim().min(1).max(20),
  transferTo: z.union([emailSchema, z.literal('').transform(() => undefined)]),
  removeFromSharing: z.boolean(),
  tz: z.string().trim().max(64).transform((tz) => (tz === '' ? undefined : tz)),
  leaveDateColumn: z.string().trim().max(200),
  transferColumn: z.string().trim().max(200),
  ignoreColumns: z.string().max(2000).transform((list) => list.split(',').map((name) => name.trim()).filter((name) => name !== '')),
});

/**
 * Start an offboarding from the page, as `seatflow offboard` does: a leavers file is uploaded and planned (nothing
 * changes), the plan is shown leaver by leaver with the guardrail check, and exactly that plan is submitted after an
 * explicit confirmation, through the workflow's own plan and submit (OffboardingSystem).
 */
export function registerOffboardPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render } = context;
  const offboarding = deps.offboarding;
  if (offboarding === undefined) return;
  // A plan is about 1 KiB a leaver in memory, plus the file (kept for an approval to plan again): the oldest previews
  // go first past 64 MiB.
  const previews = createPreviews<{ plan: OffboardingPlan; name: string; bytes: Buffer; session: string | undefined }>((preview) => preview.plan.leavers.length * 1024 + preview.bytes.length);
  const refusals = createFlash<FormRefusal<OffboardFormValues>>();
  const pageOptions = { title: 'Offboard leavers', section: 'offboard' };
  const defaultHold = () => `${offboarding.config.offboarding.defaultHoldDays}d`;
  const backToForm = (request: FastifyRequest, reply: FastifyReply, refusal: FormRefusal<OffboardFormValues>) => reply.redirect(`/offboardings/new?done=${refusals.keep(request, refusal)}`, 303);
  const expired = { status: 410, error: { message: 'That plan has expired. Choose the leavers file again.' } };
  const previewOf = (request: FastifyRequest) => {
    const id = (request.params as { previewId: string }).previewId;
    const preview = previews.get(id);
    return preview === undefined || preview.session !== request.dashboardSession ? undefined : { id, preview };
  };

  app.get('/offboardings/new', session, async (request, reply) => {
    const refusal = refusals.read(request);
    const body = offboardForm({ csrfToken: csrfTokenOf(reply), defaultHold: defaultHold(), ...(refusal?.values === undefined ? {} : { values: refusal.values }), ...(refusal === undefined ? {} : { error: refusal.error }) });
    return render(reply, body, pageOptions, refusal?.status ?? 200);
  });

  app.post('/offboardings/new', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values: OffboardFormValues = {
      hold: fieldValue(body.hold) ?? defaultHold(),
      transferTo: fieldValue(body.transferTo) ?? '',
      removeFromSharing: fieldValue(body.removeFromSharing) === 'true',
      tz: fieldValue(body.tz) ?? '',
      leaveDateColumn: fieldValue(body.leaveDateColumn) ?? '',
      transferColumn: fieldValue(body.transferColumn) ?? '',
      ignoreColumns: fieldValue(body.ignoreColumns) ?? '',
    };
    const { bytes, name } = await uploadedFile(body, 'leavers', 'leavers.csv');
    if (bytes.length === 0) return backToForm(request, reply, { status: 400, error: { message: 'Choose a leavers file first (it was empty or missing).' }, values });
    const parsed = optionsSchema.safeParse(values);
    if (!parsed.success) {
      return backToForm(request, reply, { status: 400, error: { message: `The options are not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}` }, values });
    }
    try {
      const { leaveDateColumn, transferColumn, ignoreColumns, ...options } = parsed.data;
      // The same column options as `seatflow offboard --leave-date-column … --ignore-column …` and the control API's.
      const columns = leaversColumnChoices({ leaveDate: leaveDateColumn, transferTo: transferColumn }, ignoreColumns);
      const planned = await planOffboardingRequest(deps, offboarding, { bytes, name, ...options, columns });
      // The same file with the same options was offboarded before: its page, not a second offboarding.
      if ('known' in planned) return context.redirectWithNotice(request, reply, `/offboardings/${planned.known.id}`, { kind: 'note', text: 'This file was offboarded before with the same options: this is that offboarding (nothing was planned or queued twice).' });
      const previewId = previews.add({ plan: planned.plan, name, bytes, session: request.dashboardSession });
      return reply.redirect(`/offboardings/new/${previewId}`, 303);
    } catch (error) {
      // A refused file, a bad option or a busy service: the form again, with what went wrong and each bad row.
      return backToForm(request, reply, { ...formRefusal(error, { withHint: true }), values });
    }
  });

  app.get('/offboardings/new/:previewId', session, async (request, reply) => {
    const found = previewOf(request);
    if (found === undefined) return backToForm(request, reply, expired);
    const { name, plan } = found.preview;
    return render(reply, offboardPreviewPage({ previewId: found.id, name, plan, rate: deps.rate, csrfToken: csrfTokenOf(reply) }), { title: `Offboarding plan of ${name}`, section: 'offboard' });
  });

  app.post('/offboardings/new/:previewId/submit', csrf, async (request, reply) => {
    const found = previewOf(request);
    if (found === undefined) return backToForm(request, reply, expired);
    const { id: previewId, preview } = found;
    if (fieldValue((request.body as Record<string, unknown> | undefined)?.confirm) !== 'true') {
      return context.redirectWithNotice(request, reply, `/offboardings/new/${previewId}`, { kind: 'error', text: 'Nothing was started: tick the confirmation box to start the offboarding.' });
    }
    const reason = fieldValue((request.body as Record<string, unknown> | undefined)?.reason)?.trim();
    const result = await submitOffboardingRequest(deps, offboarding, { plan: preview.plan, bytes: preview.bytes, name: preview.name, actor: request.actor, reason: reason === '' ? undefined : reason });
    previews.delete(previewId);
    // An offboarding the approvals policy holds waits for a second person: its page says so.
    if ('awaitingApproval' in result) {
      return context.redirectWithNotice(request, reply, `/approvals/${result.awaitingApproval.id}`, { kind: 'note', text: `Submitted by ${request.actor!.name}: the approvals policy holds this offboarding until another person approves it. Nothing is queued yet.` });
    }
    return context.redirectWithNotice(request, reply, `/offboardings/${result.workflow.id}`, { kind: 'ok', text: result.created ? `Offboarding started by ${request.actor!.name}: each leaver's steps run on their dates.` : 'This offboarding was started before: this is it (nothing was queued twice).' });
  });
}
