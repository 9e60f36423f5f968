import { z } from 'zod';

/**
 * The `governance` section of the configuration (config.ts holds it): the operators and their roles, when a change
 * needs a second person's approval, and where notifications go. One place for all three, so that who may do what,
 * and who hears about it, reads in one file.
 */

/** What an operator may do, each role including the ones before it: read; request changes; approve; everything. */
export const OPERATOR_ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Names as they appear in the audit log and on the dashboard: no spaces, nothing a log line could be forged with. */
export const OPERATOR_NAME = /^[A-Za-z0-9._@+-]{1,64}$/;

const operatorSchema = z
  .strictObject({
    name: z.string().regex(OPERATOR_NAME, 'an operator name is 1–64 letters, digits or . _ @ + -'),
    role: z.enum(OPERATOR_ROLES),
    /** The operator's own bearer token for the control API, also their dashboard sign-in (≥ 32 characters). */
    token: z.string().min(32, 'an operator token must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
    /** The SHA-256 (hex) of the token instead of the token, so the config file holds no secret. */
    tokenSha256: z.string().regex(/^[0-9a-f]{64}$/, 'tokenSha256 is 64 lowercase hex digits (sha256sum of the token)').optional(),
    /** OS accounts that act as this operator at the command line (default: an account named like the operator). */
    osUsers: z.array(z.string().min(1)).default([]),
  })
  .refine((operator) => (operator.token === undefined) !== (operator.tokenSha256 === undefined), {
    message: 'give each operator either token or tokenSha256 (not both)',
    path: ['token'],
  });
export type OperatorConfig = z.infer<typeof operatorSchema>;

/** The kinds of change a person asks for; each can be made to need approval whatever its size. */
export const CHANGE_KINDS = ['batch', 'offboarding', 'reconciliation', 'sync', 'revert', 'migration'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

const approvalsSchema = z.strictObject({
  /** A change with more rows to change than this waits for approval. Default: no such limit. */
  changesAbove: z.number().int().min(0).optional(),
  /** A change with more destructive rows (deactivate, remove, downgrade, delete-*) than this waits. Default: none. */
  destructiveAbove: z.number().int().min(0).optional(),
  /** Actions any of whose rows makes the change wait, e.g. ["remove"]. Checked against the action names at start. */
  actions: z.array(z.string().min(1)).default([]),
  /** Kinds of change that always wait, e.g. ["offboarding", "revert"]. */
  kinds: z.array(z.enum(CHANGE_KINDS)).default([]),
});

/** Events a destination can subscribe to. */
export const NOTIFICATION_EVENTS = [
  'batch.finished',
  'rows.failed',
  'approval.needed',
  'offboarding.step-overdue',
  'schedule.held',
  'budget.paused',
  /** A change made outside seatflow left a user with a seat or status a policy forbids (docs/events.md#drift). */
  'drift.detected',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENTS)[number];

const eventsSchema = z.array(z.enum(NOTIFICATION_EVENTS)).min(1, 'a destination needs at least one event');
const destinationName = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a destination name is 1–64 letters, digits or . _ -');

const destinationSchema = z.discriminatedUnion('type', [
  z.strictObject({
    name: destinationName,
    /** JSON POST signed with HMAC-SHA256 over `timestamp.body` (header Seatflow-Signature: t=…,v1=…). */
    type: z.literal('webhook'),
    url: z.url(),
    /** The shared secret of the signature (≥ 16 characters). */
    secret: z.string().min(16, 'a webhook secret must be at least 16 characters'),
    events: eventsSchema,
  }),
  z.strictObject({
    name: destinationName,
    /** A Slack incoming webhook (or anything that takes Slack's message shape). */
    type: z.literal('slack'),
    url: z.url(),
    secret: z.string().min(16).optional(),
    events: eventsSchema,
  }),
  z.strictObject({
    name: destinationName,
    /** A Microsoft Teams incoming webhook / workflow (an Adaptive Card message). */
    type: z.literal('teams'),
    url: z.url(),
    secret: z.string().min(16).optional(),
    events: eventsSchema,
  }),
  z.strictObject({
    name: destinationName,
    /** Plain e-mail through `notifications.smtp`. */
    type: z.literal('email'),
    to: z.array(z.email()).min(1),
    events: eventsSchema,
  }),
]);
export type DestinationConfig = z.infer<typeof destinationSchema>;

const smtpSchema = z.strictObject({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(587),
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  secure: z.boolean().default(false),
  /** Refuse to send unless the server offers STARTTLS. Default true unless the host is loopback. */
  requireTls: z.boolean().optional(),
  user: z.string().optional(),
  password: z.string().optional(),
  from: z.string().min(3),
});

const notificationsSchema = z.strictObject({
  destinations: z.array(destinationSchema).default([]),
  smtp: smtpSchema.optional(),
  /** Tries per delivery before it is given up (each recorded). */
  maxAttempts: z.number().int().min(1).max(50).default(8),
  /** The first retry's delay; each next one doubles (BullMQ exponential backoff). */
  baseDelayMs: z.number().int().min(10).default(5000),
  /** How long one HTTP delivery may take. */
  timeoutMs: z.number().int().min(100).default(10_000),
  /** The dashboard's address as people reach it, for links in messages (e.g. https://seatflow.example.com). */
  dashboardUrl: z.url().optional(),
  /** 429 answers within a minute, per token, after which `budget.paused` is sent (once per minute at most). */
  rateLimitedAfter: z.number().int().min(1).default(3),
  /** How late an offboarding step may be before `offboarding.step-overdue` is sent. */
  stepOverdueMinutes: z.number().int().min(1).default(15),
});

export const governanceSchema = z
  .strictObject({
    /** Named people with a role each; empty: the control token is the one identity (an admin). */
    operators: z.array(operatorSchema).default([]),
    /** Who the command line acts as when --by is not given (default: the OS account). */
    cliOperator: z.string().regex(OPERATOR_NAME).optional(),
    approvals: approvalsSchema.default({ actions: [], kinds: [] }),
    notifications: notificationsSchema.default({ destinations: [], maxAttempts: 8, baseDelayMs: 5000, timeoutMs: 10_000, rateLimitedAfter: 3, stepOverdueMinutes: 15 }),
    /**
     * Read each row's state before it changes (one extra read per row), so `seatflow revert` can plan the inverse.
     * Default true.
     */
    recordStateBefore: z.boolean().default(true),
  })
  .superRefine((governance, context) => {
    const names = new Set<string>();
    for (const [i, operator] of governance.operators.entries()) {
      if (names.has(operator.name.toLowerCase())) context.addIssue({ code: 'custom', path: ['operators', i, 'name'], message: `operator ${operator.name} is listed twice` });
      names.add(operator.name.toLowerCase());
    }
    const destinations = new Set<string>();
    for (const [i, destination] of governance.notifications.destinations.entries()) {
      if (destinations.has(destination.name)) context.addIssue({ code: 'custom', path: ['notifications', 'destinations', i, 'name'], message: `destination ${destination.name} is listed twice` });
      destinations.add(destination.name);
      if (destination.type === 'email' && governance.notifications.smtp === undefined) {
        context.addIssue({ code: 'custom', path: ['notifications', 'destinations', i], message: 'an email destination needs notifications.smtp' });
      }
    }
  });
export type GovernanceConfig = z.infer<typeof governanceSchema>;

/** The section as it is when the config file says nothing about governance. */
export const DEFAULT_GOVERNANCE: GovernanceConfig = governanceSchema.parse({});
