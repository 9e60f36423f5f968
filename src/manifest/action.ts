import { z } from 'zod';
import { COLUMN_TYPES, SYSTEM_COLUMN_TYPES } from '../contract/enums.js';
import { describeCharacter } from '../core/character-name.js';
import { isUnprintable } from '../core/printable.js';
import { show } from './show-value.js';

/**
 * The typed actions a manifest row can ask for: one zod object per action, joined on `action`. Rows from CSV, JSON
 * and JSON Lines are normalised into this shape (see validate-row.ts) and parsed here once; jobs receive the
 * parsed value and may re-parse it (every transform is idempotent on its own output).
 */

/** A 64-bit id given by a person: a safe integer or a string of digits; anything that would lose precision is refused. */
export const manifestIdSchema = z.union([z.number(), z.string()]).transform((input, ctx) => {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (typeof input === 'number' ? !Number.isInteger(input) || input <= 0 : !/^\d+$/.test(text)) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not an id (ids are positive whole numbers, digits only)` });
    return z.NEVER;
  }
  const value = Number(text);
  if (value === 0) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not an id (ids are positive whole numbers, digits only)` });
    return z.NEVER;
  }
  if (!Number.isSafeInteger(value)) {
    ctx.addIssue({ code: 'custom', message: `id ${text} is too large to be kept exactly (beyond 2^53); check the value` });
    return z.NEVER;
  }
  return value;
});

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email());

/**
 * Text the service stores as written (names, titles, descriptions, comments) may not hold a character that a
 * terminal or a browser acts on (see `isUnprintable`: ESC, NUL, bidi overrides…): it is a mistake, or a file trying
 * to plant it where others will see it. A discussion's comment may break lines (`multiline`).
 */
function refuseControlCharacters(options: { multiline?: boolean } = {}) {
  return (value: string, ctx: z.RefinementCtx): void => {
    for (const character of value) {
      const code = character.codePointAt(0)!;
      if (!isUnprintable(code) || (options.multiline === true && (code === 0x0a || code === 0x0d || code === 0x09))) continue;
      ctx.addIssue({ code: 'custom', message: `${show(value)} contains ${describeCharacter(code)}, a control character: remove it (the service would store it as written)` });
      return;
    }
  };
}

/** A name or title sent to the service: trimmed, without control characters. */
const plainText = () => z.string().trim().superRefine(refuseControlCharacters());

/** true/false as people write them in spreadsheets. */
export const flagSchema = z.union([z.boolean(), z.string()]).transform((input, ctx) => {
  if (typeof input === 'boolean') return input;
  const text = input.trim().toLowerCase();
  if (['true', 'yes', 'y', '1'].includes(text)) return true;
  if (['false', 'no', 'n', '0'].includes(text)) return false;
  ctx.addIssue({ code: 'custom', message: `"${input}" is not true or false` });
  return z.NEVER;
});

const intSchema = z.union([z.number(), z.string()]).transform((input, ctx) => {
  const value = typeof input === 'number' ? input : Number(input.trim());
  if (!Number.isInteger(value) || value < 0) {
    ctx.addIssue({ code: 'custom', message: `"${String(input)}" is not a whole number ≥ 0` });
    return z.NEVER;
  }
  return value;
});

/** A list given as a JSON array, or in a CSV cell separated by `|`. */
const listSchema = z
  .union([z.array(z.string()), z.string()])
  .transform((input) => (Array.isArray(input) ? input : input.split('|')).map((item) => item.trim()).filter((item) => item !== ''))
  .pipe(z.array(plainText()));

/** Enumerations are matched in any case (`viewer`, `Date`). */
function upper<T extends z.ZodType<unknown, string>>(inner: T) {
  return z.string({ message: 'must be text' }).trim().toUpperCase().pipe(inner);
}

/** A user named by e-mail or by id. When both are given, the id decides and the e-mail is checked against it. */
export type UserRef = { email: string } | { userId: number; email?: string | undefined };

/** How messages name the user a row gives: its e-mail when the row has one, else `idPrefix` and its id. */
export function userRefLabel(ref: UserRef, idPrefix = ''): string {
  return ref.email ?? `${idPrefix}${'userId' in ref ? ref.userId : ''}`;
}
// One object schema rather than a union: a union would try (and fail) one branch per e-mail-only row.
export const userRefSchema = z
  .object({ userId: manifestIdSchema.optional(), email: emailSchema.optional() })
  .refine((ref) => ref.userId !== undefined || ref.email !== undefined, { message: 'name the user with email or userId', path: ['email'] })
  .transform((ref): UserRef => (ref.userId === undefined ? { email: ref.email! } : ref.email === undefined ? { userId: ref.userId } : { userId: ref.userId, email: ref.email }));

const userRow = { user: userRefSchema };
const profileFields = {
  firstName: plainText().pipe(z.string().max(50)).optional(),
  lastName: plainText().pipe(z.string().max(50)).optional(),
  admin: flagSchema.optional(),
  licensedSheetCreator: flagSchema.optional(),
  groupAdmin: flagSchema.optional(),
  resourceViewer: flagSchema.optional(),
};
export const PROFILE_FIELD_NAMES = Object.keys(profileFields) as (keyof typeof profileFields)[];
const columnFields = {
  type: upper(z.enum(COLUMN_TYPES)).optional(),
  index: intSchema.optional(),
  options: listSchema.optional(),
  symbol: z.string().trim().toUpperCase().optional(),
  systemColumnType: upper(z.enum(SYSTEM_COLUMN_TYPES)).optional(),
  width: intSchema.optional(),
  hidden: flagSchema.optional(),
  locked: flagSchema.optional(),
  validation: flagSchema.optional(),
  // A description may run over several lines, as in the service's own column editor.
  description: z.string().trim().superRefine(refuseControlCharacters({ multiline: true })).optional(),
  formula: plainText().optional(),
};
/** Where the column to change is named: by id, or by its current title. */
const columnRef = { columnId: manifestIdSchema.optional(), columnTitle: plainText().pipe(z.string().min(1)).optional() };
const hasColumnRef = (row: { columnId?: number | undefined; columnTitle?: string | undefined }) =>
  row.columnId !== undefined || row.columnTitle !== undefined;
const columnRefMessage = { message: 'name the column with columnId or columnTitle', path: ['columnId'] };

export const addActionSchema = z.object({
  action: z.literal('add'),
  user: z.object({ email: emailSchema }),
  ...profileFields,
  sendEmail: flagSchema.optional(),
  allowInviteAccountAdmin: flagSchema.optional(),
});

export const updateActionSchema = z
  .object({ action: z.literal('update'), ...userRow, ...profileFields })
  .refine((row) => PROFILE_FIELD_NAMES.some((name) => row[name] !== undefined), {
    message: 'update needs at least one of firstName, lastName, admin, licensedSheetCreator, groupAdmin, resourceViewer',
    path: ['firstName'],
  });

export const deactivateActionSchema = z.object({ action: z.literal('deactivate'), ...userRow });
export const reactivateActionSchema = z.object({ action: z.literal('reactivate'), ...userRow });

export const removeActionSchema = z
  .object({
    action: z.literal('remove'),
    ...userRow,
    transferTo: userRefSchema.optional(),
    transferSheets: flagSchema.optional(),
    removeFromSharing: flagSchema.optional(),
  })
  // The service ignores transferSheets without transferTo (docs/service.md#remove-user): say so instead of silently dropping it.
  .refine((row) => row.transferSheets !== true || row.transferTo !== undefined, {
    message: 'only works together with transferTo (whom should the sheets go to?)',
    path: ['transferSheets'],
  });

export const downgradeActionSchema = z.object({
  action: z.literal('downgrade'),
  ...userRow,
  planId: manifestIdSchema.optional(),
  // VIEWER is CONTRIBUTOR's retired name (docs/service.md#seat-types): both are taken, one spelling is kept inside.
  seatType: upper(z.enum(['CONTRIBUTOR', 'GUEST', 'VIEWER']))
    .default('CONTRIBUTOR')
    .transform((seat) => (seat === 'VIEWER' ? 'CONTRIBUTOR' : seat)),
  removeAdminStatus: flagSchema.optional(),
});

export const upgradeActionSchema = z.object({
  action: z.literal('upgrade'),
  ...userRow,
  planId: manifestIdSchema.optional(),
  seatType: upper(z.enum(['MEMBER', 'GUEST'])).default('MEMBER'),
});

export const removeFromPlanActionSchema = z.object({ action: z.literal('remove-from-plan'), ...userRow, planId: manifestIdSchema.optional() });

export const addAlternateEmailActionSchema = z.object({ action: z.literal('add-alternate-email'), ...userRow, alternateEmail: emailSchema });
export const deleteAlternateEmailActionSchema = z.object({ action: z.literal('delete-alternate-email'), ...userRow, alternateEmail: emailSchema });
export const makeAlternateEmailPrimaryActionSchema = z.object({
  action: z.literal('make-alternate-email-primary'),
  ...userRow,
  alternateEmail: emailSchema,
});

export const setProfileImageActionSchema = z.object({
  action: z.literal('set-profile-image'),
  ...userRow,
  /** As written: relative to the manifest's folder (or `--files DIR`); checked by check-row-files.ts. */
  image: z
    .string()
    .trim()
    .min(1)
    .regex(/\.(png|jpe?g|gif)$/i, { message: 'a profile image is a .png, .jpg, .jpeg or .gif file' }),
});

export const addColumnActionSchema = z.object({
  action: z.literal('add-column'),
  sheetId: manifestIdSchema,
  title: plainText().pipe(z.string().min(1, { message: 'a new column needs a title' })),
  ...columnFields,
  type: upper(z.enum(COLUMN_TYPES)),
  index: intSchema,
});

export const updateColumnActionSchema = z
  .object({ action: z.literal('update-column'), sheetId: manifestIdSchema, ...columnRef, title: plainText().pipe(z.string().min(1)).optional(), ...columnFields })
  .refine(hasColumnRef, columnRefMessage)
  // Rule 5 of update column: type is required when options or symbol change (errorCode 1090).
  .refine((row) => row.type !== undefined || (row.options === undefined && row.symbol === undefined && row.systemColumnType === undefined), {
    message: 'required when changing options, symbol or systemColumnType',
    path: ['type'],
  });

export const deleteColumnActionSchema = z
  .object({ action: z.literal('delete-column'), sheetId: manifestIdSchema, ...columnRef })
  .refine(hasColumnRef, columnRefMessage);

export const createDiscussionActionSchema = z.object({
  action: z.literal('create-discussion'),
  sheetId: manifestIdSchema,
  comment: z.string().trim().min(1, { message: 'the discussion needs comment text' }).superRefine(refuseControlCharacters({ multiline: true })),
  /** As written, like `image`; attached to the first comment. */
  file: z.string().trim().min(1).optional(),
});

const webhookAction = <T extends string>(name: T) => z.object({ action: z.literal(name), webhookId: manifestIdSchema });
export const enableWebhookActionSchema = webhookAction('enable-webhook');
export const disableWebhookActionSchema = webhookAction('disable-webhook');
export const resetWebhookSecretActionSchema = webhookAction('reset-webhook-secret').extend({
  /**
   * Where the new shared secret is handed (a file on the machine that runs the row, appended as a JSON line, readable
   * by its owner only): the only place it is written. Without it the subscriber reads it with get-webhook.
   */
  secretTo: z
    .string()
    .trim()
    .min(1)
    .refine((file) => file.startsWith('/'), { message: 'an absolute path: the row runs wherever a worker runs' })
    .optional(),
});
export const deleteWebhookActionSchema = webhookAction('delete-webhook');
/** Re-points a webhook (its callback URL) or renames it; `enabled: true` makes the service verify the URL again. */
export const updateWebhookActionSchema = webhookAction('update-webhook')
  .extend({
    callbackUrl: z.string().trim().pipe(z.url({ protocol: /^https?$/, message: 'is not an http(s) URL' })).optional(),
    name: plainText().pipe(z.string().min(1)).optional(),
    enabled: flagSchema.optional(),
  })
  .refine((row) => row.callbackUrl !== undefined || row.name !== undefined || row.enabled !== undefined, {
    message: 'update-webhook needs callbackUrl, name or enabled',
    path: ['callbackUrl'],
  });

export const actionSchema = z.discriminatedUnion('action', [
  addActionSchema,
  updateActionSchema,
  deactivateActionSchema,
  reactivateActionSchema,
  removeActionSchema,
  downgradeActionSchema,
  upgradeActionSchema,
  removeFromPlanActionSchema,
  addAlternateEmailActionSchema,
  deleteAlternateEmailActionSchema,
  makeAlternateEmailPrimaryActionSchema,
  setProfileImageActionSchema,
  addColumnActionSchema,
  updateColumnActionSchema,
  deleteColumnActionSchema,
  createDiscussionActionSchema,
  enableWebhookActionSchema,
  disableWebhookActionSchema,
  resetWebhookSecretActionSchema,
  deleteWebhookActionSchema,
  updateWebhookActionSchema,
]);

export type Action = z.infer<typeof actionSchema>;
/** What a manifest row may contain before parsing (digit strings, `yes`). */
export type ActionInput = z.input<typeof actionSchema>;
export type ActionName = Action['action'];
export type ActionOf<N extends ActionName> = Extract<Action, { action: N }>;

export const ACTION_NAMES = [
  'add',
  'update',
  'deactivate',
  'reactivate',
  'remove',
  'downgrade',
  'upgrade',
  'remove-from-plan',
  'add-alternate-email',
  'delete-alternate-email',
  'make-alternate-email-primary',
  'set-profile-image',
  'add-column',
  'update-column',
  'delete-column',
  'create-discussion',
  'enable-webhook',
  'disable-webhook',
  'reset-webhook-secret',
  'delete-webhook',
  'update-webhook',
] as const satisfies readonly ActionName[];

// Compile-time proof that ACTION_NAMES lists every member of the union.
const everyActionListed: Exclude<ActionName, (typeof ACTION_NAMES)[number]> extends never ? true : false = true;
void everyActionListed;

/** Actions that take something away; guarded by guardrails.destructiveMax* (issue 4: deactivate, remove, downgrade, delete-*). */
export const DESTRUCTIVE_ACTIONS: ReadonlySet<ActionName> = new Set<ActionName>([
  'deactivate',
  'remove',
  'remove-from-plan',
  'downgrade',
  'delete-alternate-email',
  'delete-column',
  'delete-webhook',
]);

/** Actions whose row names a user (`action.user`). */
export const USER_ACTIONS: ReadonlySet<ActionName> = new Set<ActionName>(ACTION_NAMES.filter((name) => !/column|discussion|webhook/.test(name)));

export function isActionName(value: string): value is ActionName {
  return (ACTION_NAMES as readonly string[]).includes(value);
}
