import { z } from 'zod';
import { NOTIFICATION_EVENTS } from '../../core/governance-config.js';

/**
 * One thing people are told about. Its `id` is stable (the batch, the request, the step and its due time), so an event
 * noticed twice (two workers, a retried hook) is delivered once per destination.
 */
export const notificationEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(NOTIFICATION_EVENTS),
  occurredAt: z.string(),
  /** One line: the message's title or subject. */
  title: z.string(),
  /** A few plain lines with the facts (counts, who, why). */
  text: z.string(),
  /** Where on the dashboard to look, as a path (`/approvals/b…`); made absolute with notifications.dashboardUrl. */
  path: z.string().optional(),
  target: z.string().optional(),
  sim: z.boolean().optional(),
  /** The facts for machines (webhook receivers): counts, ids, reasons. No token or secret. */
  data: z.record(z.string(), z.unknown()),
});
export type NotificationEvent = z.infer<typeof notificationEventSchema>;

/** What the rest of seatflow sees of notifications: hand an event over; delivery is durable and happens elsewhere. */
export interface Notifier {
  notify(event: Omit<NotificationEvent, 'occurredAt'> & { occurredAt?: string }): Promise<void>;
}

/** A notifier that tells nobody: no destination is configured. */
export const SILENT_NOTIFIER: Notifier = { notify: async () => undefined };
