import { z } from 'zod';
import { TIME_OF_DAY } from '../core/time-of-day.js';
import { manifestIdSchema } from '../manifest/action.js';
import { HR_EXPORT_FIELDS } from '../manifest/columns/input-vocabularies.js';
import { POLICY_SEATS, seatOf } from '../reconcile/policy.js';

/**
 * A lifecycle policy: how `seatflow sync` reads an HR export (its columns, statuses, dates) and what it does with the
 * joiners, movers and leavers it finds (the seat by department/title/location, the hold and the transfer fallback,
 * who is never touched, when an export is broken). Parsed once at the edge; src/sync trusts these types.
 */

/** One text or several, matched whole and in any case (`"Engineering"`, `["Sales", "Marketing"]`). */
const texts = z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)]).transform((value) => (Array.isArray(value) ? value : [value]));

const conditionSchema = z
  .strictObject({
    department: texts.optional(),
    title: texts.optional(),
    /** Any of these words or phrases in the title (`"Intern"` matches "Marketing Intern"). */
    titleContains: texts.optional(),
    location: texts.optional(),
  })
  .refine((when) => Object.values(when).some((value) => value !== undefined), { message: 'a seat rule needs at least one condition in "when"' });

export const seatRuleSchema = z.strictObject({
  /** Shown in plans and reports; default `seats.rules[i]`. */
  name: z.string().trim().min(1).max(80).optional(),
  when: conditionSchema,
  then: z.strictObject({ seat: seatOf(POLICY_SEATS) }),
});
export type SeatRule = z.infer<typeof seatRuleSchema>;

const zone = z.string().trim().refine((name) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}, { message: 'is not an IANA time zone (e.g. Europe/Berlin)' });

const email = z.string().trim().toLowerCase().pipe(z.email({ message: 'is not a valid e-mail address' }));
const domain = z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, { message: 'is not a mail domain' });

/** How dates without a year first are written; ISO (2026-12-04) is always read. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY'] as const;

export const lifecyclePolicySchema = z.strictObject({
  version: z.literal(1).default(1),
  /** Names the accepted exports this policy compares against (with the target); default the policy file's path. */
  name: z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { message: 'letters, digits, ".", "_" and "-" (up to 64)' }).optional(),
  /** The plan whose seats are given; default the only plan of the organization. */
  planId: manifestIdSchema.optional(),
  /** The zone of dates written without an offset (an employee's `timeZone` column or location comes first). */
  timeZone: zone,
  /** The time zone of employees of a location, by the location as the export writes it. */
  locationTimeZones: z.record(z.string(), zone).default({}),
  dateFormat: z.enum(DATE_FORMATS).default('YYYY-MM-DD'),
  /** Which column holds which field, where the export's header is none of the spellings seatflow knows. */
  columns: z.partialRecord(z.enum(HR_EXPORT_FIELDS), z.string().trim().min(1)).default({}),
  /** Columns that mean nothing here (a column seatflow does not read that holds dates or e-mails is refused otherwise). */
  ignoreColumns: z.array(z.string().trim().min(1)).default([]),
  /** What each status value of the export means; a value in neither list refuses the export. */
  statuses: z
    .strictObject({ active: z.array(z.string().trim().min(1)), leaver: z.array(z.string().trim().min(1)) })
    .default({ active: ['Active', 'Leave of Absence', 'On Leave', 'Pre-Hire', 'Hired'], leaver: ['Terminated', 'Inactive', 'Separated', 'Former'] }),
  /**
   * What says when the export was written, so that an export older than the last accepted one is refused: its
   * `generatedAt` column (the same in every row; in a JSON export also a top-level `generatedAt`), or the file's
   * modification time. Default: the column when the export has one, else the file's time.
   */
  exportTime: z.enum(['column', 'file-modified']).optional(),
  seats: z.strictObject({
    rules: z.array(seatRuleSchema).default([]),
    /** The seat of a joiner no rule matches. Default PROVISIONAL_MEMBER: what an add gives (docs/service.md#add-user). */
    default: seatOf(POLICY_SEATS).default('PROVISIONAL_MEMBER'),
  }),
  joiners: z.strictObject({ sendEmail: z.boolean().default(false) }).default({ sendEmail: false }),
  leavers: z
    .strictObject({
      /** Between deactivation and removal, as `seatflow offboard --hold` (7d, 36h, …). */
      hold: z.string().trim().optional(),
      /** Who takes over when the manager cannot (as `--transfer-to`). */
      transferTo: email.optional(),
      removeFromSharing: z.boolean().default(false),
      /** When a last day written as a date alone ends access (HH:MM; default config offboarding.lastDayEndsAt). */
      lastDayEndsAt: z.string().regex(TIME_OF_DAY, { message: 'is a time of day, HH:MM from 00:00 to 24:00' }).optional(),
    })
    .default({ removeFromSharing: false }),
  /** People in the organization who are not in the export (and never were): listed, or offboarded too. */
  notInExport: z.enum(['list', 'offboard']).default('list'),
  /** Never touched, whatever the export says (besides config guardrails.protectedAccounts). */
  protect: z
    .strictObject({ admins: z.boolean().default(true), emails: z.array(email).default([]), domains: z.array(domain).default([]) })
    .default({ admins: true, emails: [], domains: [] }),
  safety: z
    .strictObject({
      /**
       * The accidental-deletion threshold: an export missing this share (0–1) of the employees of the last accepted
       * one is taken as broken, not as a layoff: nothing happens until confirmed.
       */
      maxMissingShare: z.number().min(0).max(1).default(0.2),
    })
    .default({ maxMissingShare: 0.2 }),
});

export type LifecyclePolicy = z.infer<typeof lifecyclePolicySchema>;
export type PolicySeatName = LifecyclePolicy['seats']['default'];
