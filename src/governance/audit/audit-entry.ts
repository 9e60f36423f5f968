import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { z } from 'zod';

/**
 * One entry of the audit trail, and the rule that chains entries: each carries the SHA-256 of the entry before it
 * (`prev`) and its own (`hash`), computed over its canonical JSON. Changing, removing or inserting an entry breaks the
 * chain at that point (verify-audit.ts finds where).
 */

/** What happened. One vocabulary for the log, its exports and the dashboard. */
export const AUDIT_EVENTS = [
  /** Someone asked for a change: a batch, an offboarding, a reconciliation run, a sync, a revert. */
  'change.requested',
  'change.approved',
  'change.rejected',
  /** Re-planned before running, the approved plan had gone stale: it waits for approval again. */
  'change.replanned',
  /** The change became queued work (a batch, an offboarding). */
  'change.queued',
  /** One row the service was asked to change, with the service's answer. */
  'row.applied',
  'offboarding.undone',
  /** Joiners or movers of a sync stopped before their step ran (`seatflow undo J…|M…`). */
  'workflow.undone',
  /** The configuration files differ from the last ones recorded (their SHA-256, never their content). */
  'config.loaded',
  'schedule.added',
  'schedule.removed',
  /** A change of a user that seatflow did not make, as the service's events told it (docs/events.md#whose-change). */
  'change.outside',
  /** The plan webhook of `seatflow webhooks subscribe`, a rotation of its secret, its removal. */
  'events.subscribed',
  'events.rotated',
  'events.unsubscribed',
  /** A schedule run now, out of its cron (`seatflow schedule run`, the dashboard's Run now). */
  'schedule.run',
  /** A batch cancelled (`seatflow cancel`, the API, the dashboard): its rows not yet started end cancelled. */
  'batch.cancelled',
  /** A batch's failed rows queued again (`seatflow retry`, the API, the dashboard). */
  'batch.retried',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** The first entry's `prev`. */
export const GENESIS_HASH = '0'.repeat(64);

const jsonValue: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]));

export const auditEntrySchema = z.strictObject({
  seq: z.number().int().positive(),
  /** When seatflow appended it (ISO, the appending machine's clock). */
  at: z.string(),
  event: z.enum(AUDIT_EVENTS),
  /** Who: an operator's name, `schedule:<name>`, or `worker` for rows a worker ran. */
  actor: z.string(),
  /** What it is about: a batch, request, offboarding or schedule id, or a file. */
  subject: z.string(),
  /** The ticket or reason the person gave (`--reason "HR-1234"`). */
  reason: z.string().optional(),
  data: z.record(z.string(), jsonValue),
  prev: z.string().regex(/^[0-9a-f]{64}$/),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** What a caller appends; the log gives it its place (seq, prev, hash) and time. */
export interface AuditRecord {
  event: AuditEvent;
  actor: string;
  subject: string;
  reason?: string | undefined;
  data?: Record<string, unknown>;
}

/**
 * The entry's hash: SHA-256 over `prev` (64 hex digits) followed by the entry without `hash` as canonical JSON (keys
 * sorted at every level, no spaces): what `jq -cS 'del(.hash)'` prints for an exported line, so anyone can check it.
 */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(entry.prev).update(canonicalJson(entry)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

/** The entry as stored and exported: its fields and its hash. */
export function sealEntry(body: Omit<AuditEntry, 'hash'>): AuditEntry {
  return { ...body, hash: entryHash(body) };
}
