import type { ColumnTag, ColumnType, SeatType, SystemColumnType, UserStatus, WebhookScope, WebhookStatus } from '../../contract/index.js';

/**
 * The reference server's internal records. Times are epoch milliseconds of the sim clock; views turn them into wire
 * dates. Records are plain objects kept in maps, so a snapshot is a JSON dump.
 */

/** A seat the user holds in one plan. VIEWER is stored as VIEWER; CONTRIBUTOR exists only on the wire. */
export interface PlanSeat {
  planId: number;
  seatType: Exclude<SeatType, 'CONTRIBUTOR'>;
  seatTypeLastChangedAt: number;
  provisionalExpirationDate: number | null;
  isInternal: boolean;
}

export interface AlternateEmailRecord {
  id: number;
  email: string;
  confirmed: boolean;
}

export interface UserRecord {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  admin: boolean;
  licensedSheetCreator: boolean;
  groupAdmin: boolean;
  resourceViewer: boolean;
  status: UserStatus;
  /**
   * Managed by an identity provider or directory integration: deactivate, reactivate and remove are refused
   * (docs/service.md#externally-managed-users).
   */
  externallyManaged: boolean;
  /** The external source's name when the fixture gives one (e.g. "Okta"), for the refusal's message. */
  externalSource: string | null;
  /** False once removed from the organization: a free collaborator, invisible to the org's user list. */
  inOrg: boolean;
  deactivatedAt: number | null;
  lastLogin: number | null;
  createdAt: number;
  seats: PlanSeat[];
  alternateEmails: AlternateEmailRecord[];
  profileImage: { imageId: string; height: number; width: number } | null;
  company?: string;
  department?: string;
  title?: string;
  role?: string;
  workPhone?: string;
  mobilePhone?: string;
  locale: string;
  timeZone: string;
}

export interface PlanRecord {
  id: number;
  /** The owning organization's name, as PLAN_NAME reports it. */
  name: string;
  domains: string[];
}

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  ownerId: number;
  memberIds: number[];
  createdAt: number;
  modifiedAt: number;
}

export type CellValue = string | number | boolean | null | { email: string; name?: string } | unknown[];

export interface ColumnRecord {
  id: number;
  title: string;
  type: ColumnType;
  primary: boolean;
  options?: string[];
  contactOptions?: { name?: string; email: string }[];
  symbol?: string;
  systemColumnType?: SystemColumnType;
  autoNumberFormat?: { prefix?: string; suffix?: string; fill?: string; startingNumber?: number };
  width: number;
  hidden: boolean;
  locked: boolean;
  validation: boolean;
  description?: string;
  formula?: string;
  format?: string;
  tags?: ColumnTag[];
}

export interface RowRecord {
  id: number;
  cells: Record<string, CellValue>;
}

export interface AttachmentRecord {
  id: number;
  name: string;
  mimeType: string;
  sizeInKb: number;
  createdAt: number;
  createdBy: number;
}

export interface CommentRecord {
  id: number;
  text: string;
  createdBy: number;
  createdAt: number;
  modifiedAt: number;
  attachments: AttachmentRecord[];
}

export interface DiscussionRecord {
  id: number;
  title: string;
  parentType: 'SHEET' | 'ROW';
  parentId: number;
  createdBy: number;
  comments: CommentRecord[];
}

export type AccessLevel = 'OWNER' | 'ADMIN' | 'EDITOR_SHARE' | 'EDITOR' | 'COMMENTER' | 'VIEWER';

export interface SheetRecord {
  id: number;
  name: string;
  ownerId: number;
  dependenciesEnabled: boolean;
  /** userId → access level, the owner excluded. */
  sharing: Record<string, Exclude<AccessLevel, 'OWNER'>>;
  columns: ColumnRecord[];
  rows: RowRecord[];
  discussions: DiscussionRecord[];
  version: number;
  createdAt: number;
  modifiedAt: number;
}

export type WebhookOwner = { kind: 'user'; userId: number } | { kind: 'app'; appId: string };

export interface WebhookRecord {
  id: number;
  name: string;
  callbackUrl: string;
  scope: WebhookScope;
  scopeObjectId: number;
  events: string[];
  version: number;
  enabled: boolean;
  status: WebhookStatus;
  disabledDetails?: string;
  sharedSecret: string;
  owner: WebhookOwner;
  subscope?: { columnIds?: number[] };
  customHeaders?: Record<string, string>;
  createdAt: number;
  modifiedAt: number;
  /** Kept once a callback was attempted (epoch ms of the server's clock); the view reports them as `stats`. */
  stats?: WebhookCallbackStats;
}

export interface WebhookCallbackStats {
  lastCallbackAttempt?: number;
  /** Retries made as of the last attempt: 0 for a callback's first attempt. */
  lastCallbackAttemptRetryCount?: number;
  lastSuccessfulCallback?: number;
}

export interface AppRecord {
  id: string;
  name: string;
}

/** An access token: user-generated, or issued to a third-party app acting for a user. */
export interface TokenRecord {
  token: string;
  userId: number;
  appId?: string;
}

export interface OrgRecord {
  id: number;
  name: string;
}
