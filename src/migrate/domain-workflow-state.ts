import { z } from 'zod';
import { personBaseSchema, workflowBaseShape } from '../workflow/workflow-shapes.js';
import { OUTCOMES } from '../queue/row-outcome.js';
import { OLD_ADDRESS_CHOICES } from './domain-migration-request.js';

/** The lifecycle's name, on each record and in `seatflow steps`. */
export const DOMAIN_MIGRATION = 'domain-migration';

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** A domain migration's record: the fields of every workflow, the domains, the wait for owners, the step batches. */
export const domainRecordSchema = z.object({
  ...workflowBaseShape,
  lifecycle: z.string(),
  from: z.string(),
  to: z.string(),
  oldAddress: z.enum(OLD_ADDRESS_CHOICES),
  /** The last check (epoch ms, service clock): an address its owner has not confirmed by then is given up. */
  confirmBy: z.coerce.number(),
  /** The check step due at confirmBy: when it runs (at its time, or brought forward by `steps run`) the wait ends. */
  lastCheck: z.string(),
  /** The operator said the new domain is validated: an unconfirmed address then ends the user at once, saying so. */
  expectConfirmed: flag,
  /** Step batches (the ordinary batch store), one outcome per user in each. */
  addBatch: z.string(),
  primaryBatch: z.string(),
  removeBatch: z.string().optional(),
});
export type DomainRecord = z.infer<typeof domainRecordSchema>;

/**
 * scheduled: waiting for the migrate step (undo can stop it); adding: the add row is queued; confirming: the new
 * address waits for its owner's confirmation (checked on a schedule); promoting: the make-primary row is queued;
 * removing: the delete row of the old address is queued. The rest are ends.
 */
export const DOMAIN_PHASES = ['scheduled', 'adding', 'confirming', 'promoting', 'removing', 'migrated', 'unconfirmed', 'skipped', 'refused', 'failed', 'undone'] as const;
export type DomainPhase = (typeof DOMAIN_PHASES)[number];
export const DOMAIN_OPEN: ReadonlySet<string> = new Set(['scheduled', 'adding', 'confirming', 'promoting', 'removing']);

export const domainPersonSchema = z.object({
  ...personBaseSchema.shape,
  phase: z.enum(DOMAIN_PHASES),
  newEmail: z.string(),
  /** The new address's id once it is an alternate of the user. */
  alternateEmailId: z.number().optional(),
  /**
   * The latest reading of the user (the plan's, or the migrate step's own): when (ISO, service clock), and the new
   * address as it saw it (to add, or an alternate, confirmed or not); the primary address was `email`. The migrate step
   * stands on the plan's while it stands, and the make-primary row keeps `email` as its state before (for revert).
   */
  reading: z.object({ readAt: z.string(), newAddress: z.enum(['add', 'confirmed', 'unconfirmed']) }).optional(),
  /** Whether check steps were scheduled for the user (the plan expected a wait for the owner's confirmation). */
  checked: z.boolean(),
  /** The code of the service's refusal that ended the user (1157, 1159, 1330, 1186…). */
  errorCode: z.number().optional(),
  undo: z.object({ by: z.string(), at: z.string(), from: z.string() }).optional(),
  /**
   * How the step batches without an outcome of the user's end, written with the phase that ended the user: a later run
   * of a step writes those ends again, as the run that ended the user may have died before it wrote them.
   */
  restEnd: z.object({ outcome: z.enum(OUTCOMES), message: z.string() }).optional(),
});
export type DomainPerson = z.infer<typeof domainPersonSchema>;
