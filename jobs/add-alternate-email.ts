import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { findAlternateEmail, resolveUserId } from './resolve-target.js';
import { invert, sameUser, type ReversibleJobType } from './inverse-support.js';

/**
 * add-alternate-email: attach an address to a user. Confirm: list the user's alternate addresses; the address is
 * among them (case-insensitive) → done.
 */
export const addAlternateEmailJob: ReversibleJobType<ActionOf<'add-alternate-email'>> = {
  action: 'add-alternate-email',
  // Confirms wait out a request that got no answer: else a second create is refused (it exists) although the first landed.
  creates: true,

  async run(context) {
    const userId = await resolveUserId(context);
    const added = await context.api.alternateEmails.add(userId, [context.action.alternateEmail], callOptions(context));
    const wanted = context.action.alternateEmail.toLowerCase();
    const created = added.find((alternate) => alternate.email.toLowerCase() === wanted) ?? added[0];
    // Whether the service counts it confirmed, as it answered: a domain migration's step goes on from the answer.
    return succeeded({ userId, ...(created === undefined ? {} : { alternateEmailId: created.id, ...(created.confirmed === undefined ? {} : { confirmed: created.confirmed }) }) });
  },

  async confirm(context) {
    const userId = await resolveUserId(context);
    return (await findAlternateEmail(context.api, userId, context.action.alternateEmail, context)) === undefined ? 'not-done' : 'done';
  },

  inverse: (facts) => invert([{ action: 'delete-alternate-email', user: sameUser(facts), alternateEmail: facts.action.alternateEmail }]),
};
