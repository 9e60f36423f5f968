import type { ActionOf } from '../src/manifest/action.js';
import { userUpdateSchema, type User } from '../src/contract/index.js';
import { callOptions, succeeded } from './job-support.js';
import { userProfileFields } from './writable-fields.js';
import { resolveUserId } from './resolve-target.js';
import { cannotInvert, invert, NOTHING_RECORDED, sameUser, stateBefore, type ReversibleJobType } from './inverse-support.js';

type UpdateAction = ActionOf<'update'>;

const FLAGS = ['admin', 'licensedSheetCreator', 'groupAdmin', 'resourceViewer'] as const;
const NAMES = ['firstName', 'lastName'] as const;
type ProfileField = (typeof FLAGS)[number] | (typeof NAMES)[number];
const FIELDS: readonly ProfileField[] = [...FLAGS, ...NAMES];

/** A profile field as the user reads: a flag the service does not report is false, a name may be absent. */
function profileValue(user: User, field: ProfileField): string | boolean | undefined {
  return (FLAGS as readonly string[]).includes(field) ? (user[field] ?? false) : user[field];
}
/**
 * The values the row's fields had before it ran (a flag the service did not report counts as false): the fields an
 * update may set, as the wire defines them.
 */
const profileBeforeSchema = userUpdateSchema;

/**
 * update: set names and flags. Confirm: get the user and compare every field the row sets; all equal → done; else,
 * when the row kept the profile as it found it, a field that is neither its value then nor the requested one →
 * changed-since (someone else changed it meanwhile: sending the row again would undo their change).
 * A flag the service does not report (absent) counts as false, as the service treats it.
 */
export const updateUserJob: ReversibleJobType<UpdateAction> = {
  action: 'update',
  repeatShows: true,

  async run(context) {
    const userId = await resolveUserId(context);
    await context.api.users.update(userId, userProfileFields(context.action), callOptions(context));
    return succeeded({ userId });
  },

  async confirm(context, before) {
    const userId = await resolveUserId(context);
    const user = await context.api.users.get(userId, callOptions(context));
    const changes = userProfileFields(context.action);
    const fields = FIELDS.filter((field) => changes[field] !== undefined);
    if (fields.every((field) => profileValue(user, field) === changes[field])) return 'done';
    const found = profileBeforeSchema.safeParse(before);
    const changedSince = found.success && fields.some((field) => field in found.data && profileValue(user, field) !== changes[field] && profileValue(user, field) !== found.data[field]);
    return changedSince ? 'changed-since' : 'not-done';
  },

  /** Only the fields the row sets, as they were. */
  async readBefore(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    const changes = userProfileFields(context.action);
    const before: Record<string, string | boolean> = {};
    for (const field of FIELDS) {
      const value = profileValue(user, field);
      if (changes[field] !== undefined && value !== undefined) before[field] = value;
    }
    return before;
  },

  inverse(facts) {
    const before = stateBefore(facts, profileBeforeSchema);
    if (before === undefined || Object.keys(before).length === 0) return cannotInvert(`the profile before the update is not known: ${NOTHING_RECORDED}`);
    const notes = NAMES.filter((name) => facts.action[name] !== undefined && before[name] === undefined).map((name) => `${name} had no value before; it keeps the one the batch set`);
    return invert([{ action: 'update', user: sameUser(facts), ...before }], notes);
  },
};
