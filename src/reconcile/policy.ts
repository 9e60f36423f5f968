import { z } from 'zod';
import { manifestIdSchema } from '../manifest/action.js';

/**
 * A licence policy: which seat each user of one plan should hold, as rules evaluated in order (first match wins),
 * minus exclusions, within per-run limits. Parsed once at the edge; the rest of src/reconcile trusts these types.
 */

/** Seats a policy can ask for or test. VIEWER is accepted as CONTRIBUTOR's old name (retired 2026-10-30). */
export const POLICY_SEATS = ['MEMBER', 'PROVISIONAL_MEMBER', 'GUEST', 'CONTRIBUTOR'] as const;
export type PolicySeat = (typeof POLICY_SEATS)[number];
/** Seats a rule may give: an upgrade goes to MEMBER or GUEST, a downgrade to CONTRIBUTOR or GUEST. */
export const TARGET_SEATS = ['MEMBER', 'GUEST', 'CONTRIBUTOR'] as const;
export type TargetSeat = (typeof TARGET_SEATS)[number];

/** A seat as people write it: any case, VIEWER meaning CONTRIBUTOR. */
export function seatOf<const T extends readonly string[]>(allowed: T) {
  return z
    .string()
    .trim()
    .toUpperCase()
    .transform((seat) => (seat === 'VIEWER' ? 'CONTRIBUTOR' : seat))
    .pipe(z.enum(allowed, { message: `a seat is one of ${allowed.join(', ')} (VIEWER = CONTRIBUTOR)` }));
}

/** User statuses a rule can name. */
export const POLICY_STATUSES = ['ACTIVE', 'PENDING', 'DECLINED', 'DEACTIVATED'] as const;

const days = z.number().int().min(0);
const fileName = z.string().trim().min(1);

const conditionSchema = z
  .strictObject({
    /** The user's current seat in the plan is this one (or one of these). */
    seat: z.union([seatOf(POLICY_SEATS), z.array(seatOf(POLICY_SEATS)).min(1)]).optional(),
    /**
     * The user's status is this one (or one of these, or `ANY`). Default ACTIVE: a rule never matches a deactivated,
     * invited or declined user unless it says so (the service changes seats of active users only).
     */
    status: z.union([z.enum(POLICY_STATUSES), z.array(z.enum(POLICY_STATUSES)).min(1), z.literal('ANY')]).optional(),
    /** Logged in before, but not within this many days (users who never logged in do not match: see neverLoggedIn). */
    lastLoginOlderThanDays: days.optional(),
    /** true: has never logged in; false: has logged in at least once. */
    neverLoggedIn: z.boolean().optional(),
    /**
     * Was given their seat in this plan more than this many days ago. The wire carries no invitation date; the seat's
     * `seatTypeLastChangedAt` is the closest fact (for a user who never logged in, when they were invited).
     */
    invitedMoreThanDays: days.optional(),
    /** The user's e-mail is in this source-of-truth CSV (path relative to the policy file). */
    inFile: fileName.optional(),
    /** The user's e-mail is not in this source-of-truth CSV (e.g. "left the project"). */
    notInFile: fileName.optional(),
  })
  .refine((when) => Object.values(when).some((value) => value !== undefined), { message: 'a rule needs at least one condition in "when"' });

const actionSchema = z.union([
  z.strictObject({ seat: seatOf(TARGET_SEATS) }),
  /** The seat named in this column of the `inFile` CSV of the same rule. */
  z.strictObject({ seatFromColumn: z.string().trim().min(1) }),
  /** Leave matching users alone (a rule that protects them from later rules). */
  z.strictObject({ keep: z.literal(true) }),
]);

export const policyRuleSchema = z
  .strictObject({
    /** Shown in plans and reports; default `rules[i]`. */
    name: z.string().trim().min(1).max(80).optional(),
    when: conditionSchema,
    then: actionSchema,
  })
  .refine((rule) => !('seatFromColumn' in rule.then) || rule.when.inFile !== undefined, {
    message: 'seatFromColumn reads the seat from the rule\'s "inFile" file: add "inFile" to "when"',
    path: ['then', 'seatFromColumn'],
  });

export const policySchema = z.strictObject({
  version: z.literal(1).default(1),
  /** The plan whose seats are reconciled; default: the only plan of the organization. */
  planId: manifestIdSchema.optional(),
  rules: z.array(policyRuleSchema).min(1, { message: 'a policy needs at least one rule' }),
  exclude: z
    .strictObject({
      /** System Admins are never touched unless this is false. */
      admins: z.boolean().default(true),
      emails: z.array(z.string().trim().toLowerCase().pipe(z.email({ message: 'is not a valid e-mail address' }))).default([]),
      /** Whole mail domains, e.g. "partner.example" (sub-domains included). */
      domains: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, { message: 'is not a mail domain' })).default([]),
    })
    .default({ admins: true, emails: [], domains: [] }),
  /**
   * Columns of the source-of-truth files that mean nothing to this policy, as their headers are written: a column
   * seatflow does not read that holds dates or e-mails refuses the file otherwise (docs/reconciliation.md).
   */
  ignoreColumns: z.array(z.string().trim().min(1)).default([]),
  /** Every applied run of this policy waits for a second person's approval (docs/governance.md#approvals). */
  requireApproval: z.boolean().default(false),
  /**
   * What seatflow does when a change made outside it (the Admin Center, an identity provider) gives a user a seat this
   * policy forbids (docs/events.md#drift): `notify` (default) tells the `drift.detected` subscribers; `reconcile` also
   * queues that user's reconciliation through the usual plan, guardrails and approvals.
   */
  onDrift: z.enum(['notify', 'reconcile']).default('notify'),
  /** Per run, on top of config guardrails: a run over a limit changes nothing and says why. */
  limits: z
    .strictObject({
      maxChanges: z.number().int().min(0).optional(),
      /** Share (0–1) of the plan's users a run may change. */
      maxShare: z.number().min(0).max(1).optional(),
    })
    .default({}),
});

export type Policy = z.infer<typeof policySchema>;
export type PolicyRule = Policy['rules'][number];
export type PolicyCondition = PolicyRule['when'];
