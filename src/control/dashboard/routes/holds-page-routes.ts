import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { emailSchema } from '../../../manifest/action.js';
import { UNDOABLE_PHASES } from '../../../workflow/leaver-state.js';
import type { HoldView } from '../../../workflow/offboarding-system.js';
import type { OffboardingStatus } from '../../../workflow/offboarding-status.js';
import { CONTROL_ERROR_CODES, ControlError, offboardingNotFound } from '../../control-error.js';
import { offboardingParamsSchema } from '../../request-schemas.js';
import { undoOnTarget } from '../../requests/undo-on-target.js';
import { formatOffboardingReport } from '../../../workflow/offboarding-report.js';
import { withRedis } from '../../with-redis.js';
import { csrfTokenOf } from '../../security/register-security.js';
import type { DashboardContext } from '../dashboard-context.js';
import { holdsLive, holdsPage, type HoldGroup, type HoldsView } from '../pages/holds-page.js';
import { notAvailablePage } from '../pages/not-available-page.js';
import { offboardingLive, offboardingPage, type OffboardingView } from '../pages/offboarding-page.js';
import { changeStoryOf, type ChangeStory } from '../../requests/change-story.js';
import { fileNameOf } from '../story-facts.js';
import { undoConfirmPage, undoNotice } from '../pages/undo-pages.js';

const announcedSchema = z.object({ announced: z.string().max(40).optional().catch(undefined) });

/** `?user=` of the confirmation page and the `user` field of its form: one leaver, or (absent) all on hold. */
const undoUserSchema = z.object({ user: z.union([emailSchema, z.literal('').transform(() => undefined)]).optional() });

/**
 * The holds (leavers undo can still act on), one offboarding as `seatflow status` shows it, and undo behind a
 * confirmation page, through the same function as POST /v1/offboardings/:id/undo.
 */
export function registerHoldsPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render, fragment } = context;
  const offboarding = deps.offboarding;
  if (offboarding === undefined) {
    app.get('/holds', session, async (_request, reply) =>
      render(reply, notAvailablePage('Holds', 'it was started without the offboarding workflow.'), { title: 'Holds', section: 'holds' }, 404),
    );
    return;
  }
  const { system } = offboarding;

  const holdsView = async (): Promise<HoldsView> =>
    withRedis(deps, async () => {
      const byOffboarding = new Map<string, HoldView[]>();
      for (const hold of await system.listHolds()) byOffboarding.set(hold.workflowId, [...(byOffboarding.get(hold.workflowId) ?? []), hold]);
      const groups: HoldGroup[] = [];
      let elsewhere = 0;
      for (const [id, holds] of byOffboarding) {
        const workflow = await system.store.get(id);
        if (workflow === undefined) continue;
        if (workflow.target === deps.target.id) groups.push({ workflow, holds });
        else elsewhere += holds.length;
      }
      return { groups, elsewhere, now: Date.now() };
    });

  app.get('/holds', session, async (_request, reply) => render(reply, holdsPage(await holdsView()), { title: 'Holds', section: 'holds' }));
  app.get('/holds/live', session, async (_request, reply) => fragment(reply, holdsLive(await holdsView())));

  const idOf = (request: FastifyRequest): string => {
    const id = (request.params as { id?: string }).id ?? '';
    if (!offboardingParamsSchema.safeParse({ id }).success) throw offboardingNotFound(id);
    return id;
  };
  const statusOf = async (request: FastifyRequest): Promise<OffboardingStatus> => {
    const id = idOf(request);
    const status = await withRedis(deps, () => system.status(id));
    if (status === undefined) throw offboardingNotFound(id);
    return status;
  };
  // Who asked for an offboarding does not change once it is queued: read once per offboarding (the live part asks every 5 s).
  const stories = new Map<string, ChangeStory | undefined>();
  const viewOf = async (status: OffboardingStatus, query?: unknown): Promise<OffboardingView> => {
    const { workflow } = status;
    if (!stories.has(workflow.id)) {
      if (stories.size >= 500) stories.delete(stories.keys().next().value as string);
      stories.set(workflow.id, await changeStoryOf(deps, workflow.id, workflow.createdAt));
    }
    return { status, onThisTarget: workflow.target === deps.target.id, now: Date.now(), announced: announcedSchema.parse(query ?? {}).announced, story: stories.get(workflow.id) };
  };

  app.get('/offboardings/:id', session, async (request, reply) => {
    const status = await statusOf(request);
    return render(reply, offboardingPage(await viewOf(status)), { title: fileNameOf(status.workflow.source), section: 'holds' });
  });
  app.get('/offboardings/:id/live', session, async (request, reply) => fragment(reply, offboardingLive(await viewOf(await statusOf(request), request.query))));

  // The per-leaver report, as GET /v1/offboardings/:id/report gives it, behind the dashboard's sign-in.
  for (const format of ['csv', 'jsonl'] as const) {
    app.get(`/offboardings/:id/report.${format}`, session, async (request, reply) => {
      const id = idOf(request);
      const rows = await withRedis(deps, () => system.reportRows(id));
      if (rows === undefined) throw offboardingNotFound(id);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${id}.${format}"`)
        .send(formatOffboardingReport(rows, format));
    });
  }

  app.get('/offboardings/:id/undo', session, async (request, reply) => {
    const status = await statusOf(request);
    const { user } = parseUser(request.query);
    const { workflow } = status;
    const onHold = status.leavers.filter((leaver) => UNDOABLE_PHASES.has(leaver.phase));
    const asked = user === undefined ? undefined : status.leavers.find((leaver) => leaver.email === user);
    const blocked =
      workflow.target !== deps.target.id ? `This offboarding was submitted for ${workflow.target}, not this server's target: undo it with seatflow undo ${workflow.id} against that target.`
      : user === undefined ? undefined
      : asked === undefined ? `${user} is not a leaver of this offboarding.`
      : !UNDOABLE_PHASES.has(asked.phase) ? `${user} cannot be undone now: the leaver is ${asked.phase}${asked.undo === undefined ? '' : ` (undone by ${asked.undo.by})`}. Undo acts only before the leave date or during the hold.`
      : undefined;
    const body = undoConfirmPage({
      workflow,
      ...(user === undefined ? {} : { user }),
      leavers: asked === undefined ? onHold : [asked],
      ...(blocked === undefined ? {} : { blocked }),
      workers: status.workers,
      operator: request.actor!.name,
      csrfToken: csrfTokenOf(reply),
    });
    return render(reply, body, { title: 'Undo offboarding', section: 'holds' });
  });

  app.post('/offboardings/:id/undo', csrf, async (request, reply) => {
    const id = idOf(request);
    const { user } = parseUser(request.body);
    const results = await undoOnTarget(deps, offboarding, id, { by: request.actor!.name, via: 'dashboard', ...(user === undefined ? {} : { users: [user] }) });
    return context.redirectWithNotice(request, reply, `/offboardings/${id}`, undoNotice(results));
  });
}

function parseUser(value: unknown): { user: string | undefined } {
  const parsed = undoUserSchema.safeParse(value ?? {});
  if (!parsed.success) throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, 'the leaver to undo is not an e-mail address', { hint: 'Choose the leaver on the holds page.' });
  return { user: parsed.data.user };
}
