/** Enumerations of the wire (docs/service.md#seat-types, docs/service.md#user-objects). `as const` arrays, so zod and TypeScript share one list. */

/** Every seat type the service reports. CONTRIBUTOR is VIEWER's name when displayContributorSeatType=true. */
export const SEAT_TYPES = ['MEMBER', 'PROVISIONAL_MEMBER', 'GUEST', 'VIEWER', 'CONTRIBUTOR'] as const;
export type SeatType = (typeof SEAT_TYPES)[number];

export const UPGRADE_SEAT_TYPES = ['MEMBER', 'GUEST'] as const;
export type UpgradeSeatType = (typeof UPGRADE_SEAT_TYPES)[number];

/** CONTRIBUTOR is accepted as VIEWER's alias (docs/service.md#seat-types). */
export const DOWNGRADE_SEAT_TYPES = ['VIEWER', 'GUEST', 'CONTRIBUTOR'] as const;
export type DowngradeSeatType = (typeof DOWNGRADE_SEAT_TYPES)[number];

export const USER_STATUSES = ['ACTIVE', 'PENDING', 'DECLINED', 'DEACTIVATED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const COLUMN_TYPES = [
  'TEXT_NUMBER',
  'DATE',
  'DATETIME',
  'CONTACT_LIST',
  'MULTI_CONTACT_LIST',
  'CHECKBOX',
  'PICKLIST',
  'MULTI_PICKLIST',
  'DURATION',
  'PREDECESSOR',
  'ABSTRACT_DATETIME',
] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const SYSTEM_COLUMN_TYPES = ['AUTO_NUMBER', 'CREATED_BY', 'CREATED_DATE', 'MODIFIED_BY', 'MODIFIED_DATE'] as const;
export type SystemColumnType = (typeof SYSTEM_COLUMN_TYPES)[number];

/** Column tags that mark the special calendar/Gantt columns (docs/service.md#columns). */
export const COLUMN_TAGS = [
  'CALENDAR_START_DATE',
  'CALENDAR_END_DATE',
  'CARD_DONE',
  'GANTT_START_DATE',
  'GANTT_END_DATE',
  'GANTT_PERCENT_COMPLETE',
  'GANTT_DISPLAY_LABEL',
  'GANTT_PREDECESSOR',
  'GANTT_DURATION',
  'GANTT_ASSIGNED_RESOURCE',
  'GANTT_ALLOCATION',
  'BASELINE_START_DATE',
  'BASELINE_END_DATE',
  'BASELINE_VARIANCE',
] as const;
export type ColumnTag = (typeof COLUMN_TAGS)[number];

export const WEBHOOK_STATUSES = [
  'ENABLED',
  'NEW_NOT_VERIFIED',
  'DISABLED_BY_OWNER',
  'DISABLED_VERIFICATION_FAILED',
  'DISABLED_CALLBACK_FAILED',
  'DISABLED_SCOPE_INACCESSIBLE',
  'DISABLED_APP_REVOKED',
  'DISABLED_ADMINISTRATIVE',
  'DISABLED_EXCEEDED_GRID_LIMITS',
] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const WEBHOOK_SCOPES = ['sheet', 'plan'] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];

/** include= values the interface names; the service accepts others, so these are hints, not limits. */
export const LIST_USER_INCLUSIONS = ['lastLogin'] as const;
export const USER_INCLUSIONS = ['groups'] as const;
export const DISCUSSION_INCLUSIONS = ['comments', 'attachments'] as const;
export const COLUMN_INCLUSIONS = ['filters', 'format'] as const;
/**
 * Sent as `planName`, the current SDKs' spelling (JS SDK `ListUserPlansInclusion.PLAN_NAME = 'planName'`, Python SDK
 * docstring); the reference server also takes `planNames` (older Java SDK) and `PLAN_NAME` (docs/service.md#user-plans).
 */
export const USER_PLAN_INCLUSIONS = ['planName'] as const;
