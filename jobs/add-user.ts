import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, definedOnly, succeeded } from './job-support.js';
import { userProfileFields } from './writable-fields.js';
import { findUserByEmail } from './resolve-target.js';
import { invert, type ReversibleJobType } from './inverse-support.js';

/**
 * add: invite (or, with auto-provisioning, add) a user. The only user action without an id: the user does not exist
 * yet. Confirm: a user with that primary e-mail exists (one list call with an `email=` filter). A user who existed
 * before the batch was classified by the pre-flight, so "exists" here means our add went through.
 */
export const addUserJob: ReversibleJobType<ActionOf<'add'>> = {
  action: 'add',
  // Confirms wait out a request that got no answer: else a second create is refused (it exists) although the first landed.
  creates: true,

  async run(context) {
    const { action } = context;
    const user = await context.api.users.add(
      { email: action.user.email, ...userProfileFields(action) },
      { ...callOptions(context), ...definedOnly({ sendEmail: action.sendEmail, allowInviteAccountAdmin: action.allowInviteAccountAdmin }) },
    );
    // The report says which seat the add cost (docs/service.md#add-user): the service allocates one on every add.
    return succeeded({
      userId: user.id,
      ...(user.status === undefined ? {} : { status: user.status }),
      // With the status, what a seat change right after the add is judged on when it reads the seat alone (src/sync/joiner-lifecycle.ts).
      ...(user.admin === undefined ? {} : { admin: user.admin }),
      ...(user.seatType === undefined ? {} : { seatType: user.seatType }),
      ...(typeof user.provisionalExpirationDate === 'string' ? { provisionalUntil: user.provisionalExpirationDate } : {}),
    });
  },

  async confirm(context) {
    return (await findUserByEmail(context.api, context.action.user.email, context)) === undefined ? 'not-done' : 'done';
  },

  // The user did not exist before the row: the inverse removes them (and frees the seat the add cost).
  inverse: (facts) => invert([{ action: 'remove', user: { email: facts.action.user.email } }], ['the added user is removed from the organization, with anything they own by now']),
};
