import { promiseOffboardingPlan, type ShownLeaver } from '../ledger/promise-offboarding-plan.js';
import { DAY_MS } from '../scenario/scenario.js';
import { APPROVAL_DESTRUCTIVE_ABOVE } from '../world/world-config.js';
import { callWithRetries, describeAnswer, unacknowledgedPlan } from './call-with-retries.js';
import type { OperatorAction } from './operator-action.js';

/**
 * HR offboards leavers through the control API (`POST /v1/offboardings`, as the dashboard's Offboard page does):
 * some leave now, some on a date one to three days ahead (a date alone: access ends at the end of that day in the
 * time zone given), with a hold of one or two days before the removal; sometimes more leavers than the approvals
 * policy lets through, so the offboarding waits for the approver.
 */
export const offboard: OperatorAction = {
  name: 'offboard',
  perDay: 2,
  hours: [9, 17],
  draw(context) {
    const { draw, population, at } = context;
    const count = draw.chance(0.15) ? APPROVAL_DESTRUCTIVE_ABOVE + draw.between(1, 2) : draw.between(1, 3);
    const timeZone = draw.pick(['UTC', 'Europe/Berlin', 'America/New_York']);
    const leavers = draw.sample(population.members, count).map((person) => {
      const ahead = draw.chance(0.6) ? draw.between(1, 3) : 0;
      // The leave date as HR writes it: a calendar date of the service's day `ahead` days on (none: now).
      const leaveDate = ahead === 0 ? '' : new Date(context.startAt + at + ahead * DAY_MS).toISOString().slice(0, 10);
      return { email: person.email, leaveDate };
    });
    return { leavers, timeZone, hold: draw.pick(['1d', '1d', '2d']), name: `${context.fresh('leavers')}.csv`, operator: 'hr' };
  },
  async perform(params, context) {
    const leavers = params.leavers as { email: string; leaveDate: string }[];
    const name = String(params.name);
    const bytes = `email,leaveDate\n${leavers.map((leaver) => `${leaver.email},${leaver.leaveDate}`).join('\n')}\n`;
    const query = new URLSearchParams({ hold: String(params.hold), tz: String(params.timeZone), confirm: 'true', name, reason: 'simulation' });
    const at = await context.now();
    const answer = await callWithRetries(() => context.world.api.hr.post(`/v1/offboardings?${query}`, { bytes, type: 'text/csv' }));
    type ShownPlan = { leavers: ShownLeaver[]; options: { holdMs: number } };
    const body = answer.body as { offboardingId?: string; created?: boolean; awaitingApproval?: boolean; approval?: { id: string; planHash: string }; plan?: ShownPlan } | undefined;
    // Refused as not acknowledged (no Redis replica took it), the offboarding named with its plan may still run.
    const unacknowledged = unacknowledgedPlan<ShownPlan>(answer, 'offboardingId');
    const promise = (workflowId: string, plan: ShownPlan, state: 'expected' | 'optional') =>
      promiseOffboardingPlan(context.ledger, { workflowId, leavers: plan.leavers, holdMs: plan.options.holdMs, eventSeq: context.event.seq, state, at, label: `offboarding ${name} (${workflowId})` });
    const emails = leavers.map((leaver) => leaver.email);
    if (body?.offboardingId === undefined || (answer.status !== 200 && answer.status !== 202)) {
      if (unacknowledged !== undefined) {
        const keys = promise(unacknowledged.id, unacknowledged.plan, 'optional');
        await context.note(`offboarding ${name}: ${unacknowledged.id} not acknowledged (${describeAnswer(answer)}); it may run as its refusal showed`);
        context.remember({ workflowId: unacknowledged.id, holdMs: unacknowledged.plan.options.holdMs, emails, promiseKeys: keys });
        return;
      }
      await context.note(`offboarding ${name} (${leavers.length} leavers) refused: ${describeAnswer(answer)}`);
      return;
    }
    const workflowId = body.offboardingId;
    if (body.plan === undefined && unacknowledged?.id === workflowId && body.awaitingApproval !== true) {
      // Found on a later try: the offboarding the refusal showed is this one, kept after all: acknowledged now.
      const keys = promise(workflowId, unacknowledged.plan, 'expected');
      await context.note(`offboarding ${name}: ${workflowId} queued (refused as not acknowledged, then found on a later try)`);
      context.remember({ workflowId, holdMs: unacknowledged.plan.options.holdMs, emails, promiseKeys: keys });
      return;
    }
    if (body.plan === undefined) {
      await context.note(`offboarding ${name}: ${workflowId} existed already; nothing promised anew`);
      context.remember({ workflowId, emails: leavers.map((leaver) => leaver.email) });
      return;
    }
    const waiting = body.awaitingApproval === true;
    const keys = promiseOffboardingPlan(context.ledger, {
      workflowId,
      leavers: body.plan.leavers,
      holdMs: body.plan.options.holdMs,
      eventSeq: context.event.seq,
      state: waiting ? 'awaiting-approval' : 'expected',
      at,
      label: `offboarding ${name} (${workflowId})`,
    });
    const shown = body.plan.leavers.map((leaver) => `${leaver.email} ${leaver.verdict}${leaver.verdict === 'refused' ? '' : ` at ${new Date(leaver.leaveAt).toISOString()}`}`);
    await context.note(`offboarding ${name}: ${workflowId} ${waiting ? `awaits approval ${body.approval?.id}` : 'queued'}, hold ${String(params.hold)}; ${shown.join('; ')}`);
    context.remember({ workflowId, holdMs: body.plan.options.holdMs, emails: leavers.map((leaver) => leaver.email), promiseKeys: keys, ...(waiting && body.approval !== undefined ? { approvalId: body.approval.id, planHash: body.approval.planHash } : {}) });
  },
};
