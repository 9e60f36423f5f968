import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailSchema } from '../../../manifest/action.js';
import { leaversColumnChoices } from '../../../workflow/leavers-column-choices.js';
import type { OffboardingPlan } from '../../../workflow/plan-offboarding.js';
import { planOffboardingRequest } from '../../requests/plan-offboarding-request.js';
import { submitOffboardingRequest } from '../../requests/submit-offboarding-request.js';
import { csrfTokenOf } from '../../security/register-security.js';
import { toControlError } from '../../to-control-error.js';
import type { DashboardContext } from '../dashboard-context.js';
import { offboardForm, offboardPreviewPage, type OffboardFormValues } from '../pages/offboard-pages.js';
import { createPreviews } from '../plan-previews.js';
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
  const previews = createPreviews<{ plan: OffboardingPlan; name: string; bytes: Buffer }>((preview) => preview.plan.leavers.length * 1024 + preview.bytes.length);
  const pageOptions = { title: 'Offboard leavers', section: 'offboard' };
  const defaultHold = () => `${offboarding.config.offboarding.defaultHoldDays}d`;
  const form = (reply: Parameters<typeof csrfTokenOf>[0], values?: OffboardFormValues, error?: { message: string; problems?: string[] }) =>
    offboardForm({ csrfToken: csrfTokenOf(reply), defaultHold: defaultHold(), ...(values === undefined ? {} : { values }), ...(error === undefined ? {} : { error }) });

  app.get('/offboardings/new', session, async (_request, reply) => render(reply, form(reply), pageOptions));

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
    if (bytes.length === 0) return render(reply, form(reply, values, { message: 'Choose a leavers file first (it was empty or missing).' }), pageOptions, 400);
    const parsed = optionsSchema.safeParse(values);
    if (!parsed.success) {
      return render(reply, form(reply, values, { message: `The options are not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}` }), pageOptions, 400);
    }
    try {
      const { leaveDateColumn, transferColumn, ignoreColumns, ...options } = parsed.data;
      // The same column options as `seatflow offboard --leave-date-column … --ignore-column …` and the control API's.
      const columns = leaversColumnChoices({ leaveDate: leaveDateColumn, transferTo: transferColumn }, ignoreColumns);
      const planned = await planOffboardingRequest(deps, offboarding, { bytes, name, ...options, columns });
      // The same file with the same options was offboarded before: its page, not a second offboarding.
      if ('known' in planned) return reply.redirect(`/offboardings/${planned.known.id}`, 303);
      const previewId = previews.add({ plan: planned.plan, name, bytes });
      return render(reply, offboardPreviewPage({ previewId, name, plan: planned.plan, csrfToken: csrfTokenOf(reply) }), { title: `Offboarding plan of ${name}`, section: 'offboard' });
    } catch (error) {
      // A refused file, a bad option or a busy service: the form again, with what went wrong and each bad row.
      const answer = toControlError(error, false);
      const problems = (answer.details?.problems as Array<{ row: number; field?: string; message: string }> | undefined)?.map(
        (problem) => `row ${problem.row}${problem.field === undefined ? '' : ` ${problem.field}`}: ${problem.message}`,
      );
      const message = answer.message.split('\n', 1)[0] ?? answer.message;
      return render(reply, form(reply, values, { message: answer.hint === undefined ? message : `${message} ${answer.hint}`, ...(problems === undefined ? {} : { problems }) }), pageOptions, answer.statusCode);
    }
  });

  app.post('/offboardings/new/:previewId/submit', csrf, async (request, reply) => {
    const previewId = (request.params as { previewId: string }).previewId;
    const preview = previews.get(previewId);
    if (preview === undefined) return render(reply, form(reply, undefined, { message: 'That plan has expired. Choose the leavers file again.' }), pageOptions, 410);
    if (fieldValue((request.body as Record<string, unknown> | undefined)?.confirm) !== 'true') {
      return render(reply, form(reply, undefined, { message: 'Tick the confirmation box to start the offboarding.' }), pageOptions, 400);
    }
    const reason = fieldValue((request.body as Record<string, unknown> | undefined)?.reason)?.trim();
    const result = await submitOffboardingRequest(deps, offboarding, { plan: preview.plan, bytes: preview.bytes, name: preview.name, actor: request.actor, reason: reason === '' ? undefined : reason });
    previews.delete(previewId);
    // An offboarding the approvals policy holds waits for a second person: its page says so.
    return reply.redirect('awaitingApproval' in result ? `/approvals/${result.awaitingApproval.id}` : `/offboardings/${result.workflow.id}`, 303);
  });
}
