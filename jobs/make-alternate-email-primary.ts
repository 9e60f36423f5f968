import type { ActionOf } from '../src/manifest/action.js';
import { z } from 'zod';
import { callOptions, succeeded } from './job-support.js';
import { cannotInvert, invert, NOTHING_RECORDED, sameUser, stateBefore, type ReversibleJobType } from './inverse-support.js';
import { resolveAlternateEmailId, resolveUserId } from './resolve-target.js';

/** The row's state before: the user's primary address, as readBefore reads it or a domain migration knew it. */
export function primaryStateBefore(primaryEmail: string): Record<string, unknown> {
  return { primaryEmail };
}

/**
 * make-alternate-email-primary: promote an alternate address to the user's primary one (the old primary becomes an
 * alternate). Confirm: get the user; the primary e-mail equals the address (case-insensitive) → done.
 * The row names the user; after a promotion the user keeps its id, so the pre-flight's userId still holds, whereas a
 * lookup by the old primary e-mail would no longer find them (hence the pre-flight id matters here).
 */
export const makeAlternateEmailPrimaryJob: ReversibleJobType<ActionOf<'make-alternate-email-primary'>> = {
  action: 'make-alternate-email-primary',

  async run(context) {
    const userId = await resolveUserId(context);
    const alternateEmailId = await resolveAlternateEmailId(context, userId);
    await context.api.alternateEmails.makePrimary(userId, alternateEmailId, callOptions(context));
    return succeeded({ userId, primaryEmail: context.action.alternateEmail });
  },

  async confirm(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    return user.email.toLowerCase() === context.action.alternateEmail.toLowerCase() ? 'done' : 'not-done';
  },

  // A domain migration's row carries the primary address its step knew (target.readAtPlan, primaryStateBefore): the
  // row processor keeps that instead while it stands.
  async readBefore(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    return primaryStateBefore(user.email);
  },

  // The old primary address became an alternate of the same user: promoting it back restores both. The user is named
  // by id with the address the row made primary (their primary now), so the revert's plan finds them as they are.
  inverse(facts) {
    const before = stateBefore(facts, z.object({ primaryEmail: z.string() }));
    if (before === undefined) return cannotInvert(`the primary address before is not known: ${NOTHING_RECORDED}`);
    const user = sameUser(facts);
    const now = 'userId' in user ? { userId: user.userId, email: facts.action.alternateEmail } : user;
    return invert([{ action: 'make-alternate-email-primary', user: now, alternateEmail: before.primaryEmail.toLowerCase() }]);
  },
};
