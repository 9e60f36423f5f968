import type { OperatorAction } from './operator-action.js';

/** What an admin does to a user in the Admin Center (the reference server's `POST /_sim/outside-change`). */
const TO_A_LEAVER = ['reactivate', 'reactivate', 'seat'] as const;
const TO_ANYONE = ['seat', 'seat', 'deactivate'] as const;

/**
 * Another System Admin changes a user in the Admin Center, outside seatflow: a member's seat or a deactivation, and
 * sometimes a leaver of a recent offboarding reactivated or given a Member seat (during the wait or the hold). The
 * service tells seatflow serve through the plan webhook the world subscribed; seatflow must record each such change
 * as made outside (`change.outside`), never take its own for one, and let its lifecycles re-check the person. It
 * promises nothing: the oracle holds the audit trail against the mutation log (oracle/check-outside-changes.ts).
 */
export const outsideChange: OperatorAction = {
  name: 'outside-change',
  perDay: 2,
  hours: [8, 20],
  draw(context) {
    const { draw, population } = context;
    const offboardings = context.earlier.filter((event) => event.kind === 'action' && event.name === 'offboard');
    const toLeaver = offboardings.length > 0 && draw.chance(0.4);
    if (toLeaver) {
      const leavers = (draw.pick(offboardings.slice(-4)).params.leavers as { email: string }[] | undefined) ?? [];
      if (leavers.length > 0) return { user: draw.pick(leavers).email, change: draw.pick(TO_A_LEAVER), seatType: 'MEMBER' };
    }
    const change = draw.pick(TO_ANYONE);
    return { user: draw.pick(population.members).email, change, ...(change === 'seat' ? { seatType: draw.pick(['MEMBER', 'VIEWER']) } : {}) };
  },
  async perform(params, context) {
    const body = { via: 'admin-center', user: String(params.user), change: String(params.change), ...(params.seatType === undefined ? {} : { seatType: String(params.seatType) }) };
    try {
      const result = await context.world.service.outsideChange(body);
      await context.note(`Admin Center: ${body.change}${body.seatType === undefined ? '' : ` ${body.seatType}`} of ${body.user}: ${result.changed ? `changed (seq ${result.seq})` : 'already so, nothing sent'}`);
    } catch (error) {
      await context.note(`Admin Center: ${body.change} of ${body.user} refused: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
};
