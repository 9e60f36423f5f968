import type {
  AlternateEmail,
  Column,
  ColumnCreate,
  ColumnUpdate,
  Discussion,
  DiscussionCreate,
  DowngradeSeatType,
  Id,
  IndexResult,
  SeatType,
  SheetSummary,
  TokenPage,
  UpgradeSeatType,
  User,
  UserCreate,
  UserPlan,
  UserProfile,
  UserUpdate,
  Webhook,
  WebhookCreate,
  WebhookSharedSecret,
  WebhookUpdate,
} from '../contract/index.js';

/**
 * Every operation of the service seatflow uses (docs/service.md#operations), typed in and out. `createSmartsheetClient` implements it over HTTP;
 * tests of the layers above may implement it with a fake. Lists come two ways: `listXxxPage` for one page,
 * `listXxx` as an async iterator over every page.
 */
export interface SmartsheetApi {
  readonly users: UsersApi;
  readonly alternateEmails: AlternateEmailsApi;
  readonly discussions: DiscussionsApi;
  readonly columns: ColumnsApi;
  readonly webhooks: WebhooksApi;
  readonly sheets: SheetsApi;
}

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call (and its body read). */
  signal?: AbortSignal;
}

/** Offset paging (PaginationParameters). */
export interface PageOptions extends CallOptions {
  /** 1-based page. Default 1. */
  page?: number;
  /** Default 100 (the service's default). */
  pageSize?: number;
  /** Every item in one answer; page and pageSize are then ignored by the service. */
  includeAll?: boolean;
}

/**
 * GET /users answers at most 2000 users a page (docs/service.md#paging-list-users): `pageSize` above 2000 is refused
 * before sending, and there is no includeAll (the service would answer page 1 of 2000 only); page, or use `list()`.
 */
export interface ListUsersOptions extends Omit<PageOptions, 'includeAll'> {
  /** Only these primary e-mails; sent comma-joined. */
  email?: readonly string[];
  /** ListUserInclusion values, e.g. `lastLogin`. */
  include?: readonly string[];
  planId?: Id;
  seatType?: SeatType;
  /** Report VIEWER as CONTRIBUTOR. */
  displayContributorSeatType?: boolean;
}

export interface AddUserOptions extends CallOptions {
  /** Send the welcome e-mail. Default false. */
  sendEmail?: boolean;
  /** Invite the whole organization of a user who is admin elsewhere (error 1139 otherwise). */
  allowInviteAccountAdmin?: boolean;
}

export interface RemoveUserOptions extends CallOptions {
  /** Receives owned groups (required when the user owns groups) and, with transferSheets, owned sheets. */
  transferTo?: Id;
  /** Default false; effective only with transferTo. */
  transferSheets?: boolean;
  /** Remove the user from sharing on all sheets and workspaces of the organization. */
  removeFromSharing?: boolean;
}

export interface DowngradeOptions extends CallOptions {
  seatType: DowngradeSeatType;
  /** Required to downgrade an admin; also removes admin status. */
  removeAdminStatus?: boolean;
}

export interface UpgradeOptions extends CallOptions {
  /** MEMBER when absent. */
  seatType?: UpgradeSeatType | null;
}

export interface ListUserPlansOptions extends CallOptions {
  lastKey?: string;
  /** Default and minimum 100 on the real service. */
  maxItems?: number;
  /** Ask for planName. */
  includePlanName?: boolean;
  displayContributorSeatType?: boolean;
}

/** A file to upload: a path (streamed from disk) or bytes in memory. */
export type UploadSource =
  | { path: string; contentType?: string; fileName?: string }
  | { data: Uint8Array; fileName: string; contentType?: string };

export interface UsersApi {
  add(user: UserCreate, options?: AddUserOptions): Promise<User>;
  listPage(options?: ListUsersOptions): Promise<IndexResult<User>>;
  list(options?: Omit<ListUsersOptions, 'page'>): AsyncIterable<User>;
  getCurrent(options?: CallOptions & { include?: readonly string[] }): Promise<UserProfile>;
  /** `include: ['groups']` asks for the user's groups; the service documents it for /users/me only, so it may be ignored. */
  get(userId: Id, options?: CallOptions & { include?: readonly string[] }): Promise<UserProfile>;
  update(userId: Id, changes: UserUpdate, options?: CallOptions): Promise<User>;
  remove(userId: Id, options?: RemoveUserOptions): Promise<void>;
  deactivate(userId: Id, options?: CallOptions): Promise<void>;
  reactivate(userId: Id, options?: CallOptions): Promise<void>;
  downgrade(userId: Id, planId: Id, options: DowngradeOptions): Promise<void>;
  upgrade(userId: Id, planId: Id, options?: UpgradeOptions): Promise<void>;
  listPlansPage(userId: Id, options?: ListUserPlansOptions): Promise<TokenPage<UserPlan>>;
  listPlans(userId: Id, options?: Omit<ListUserPlansOptions, 'lastKey'>): AsyncIterable<UserPlan>;
  removeFromPlan(userId: Id, planId: Id, options?: CallOptions): Promise<void>;
  /** Profile images are at most 1 MB; png, jpeg or gif. */
  uploadProfileImage(userId: Id, image: UploadSource, options?: CallOptions): Promise<User>;
}

export interface AlternateEmailsApi {
  add(userId: Id, emails: readonly string[], options?: CallOptions): Promise<AlternateEmail[]>;
  listPage(userId: Id, options?: PageOptions): Promise<IndexResult<AlternateEmail>>;
  list(userId: Id, options?: Omit<PageOptions, 'page'>): AsyncIterable<AlternateEmail>;
  get(userId: Id, alternateEmailId: Id, options?: CallOptions): Promise<AlternateEmail>;
  delete(userId: Id, alternateEmailId: Id, options?: CallOptions): Promise<void>;
  makePrimary(userId: Id, alternateEmailId: Id, options?: CallOptions): Promise<AlternateEmail>;
}

export interface ListDiscussionsOptions extends PageOptions {
  /** `comments`, `attachments` (attachments only with comments). */
  include?: readonly string[];
}

export interface DiscussionsApi {
  create(sheetId: Id, discussion: DiscussionCreate, options?: CallOptions): Promise<Discussion>;
  /** Multipart: a `discussion` JSON part and a `file` part; at most 30 MB. */
  createWithAttachment(sheetId: Id, discussion: DiscussionCreate, file: UploadSource, options?: CallOptions): Promise<Discussion>;
  get(sheetId: Id, discussionId: Id, options?: CallOptions): Promise<Discussion>;
  listPage(sheetId: Id, options?: ListDiscussionsOptions): Promise<IndexResult<Discussion>>;
  list(sheetId: Id, options?: Omit<ListDiscussionsOptions, 'page'>): AsyncIterable<Discussion>;
  delete(sheetId: Id, discussionId: Id, options?: CallOptions): Promise<void>;
}

export interface ListColumnsOptions extends PageOptions {
  include?: readonly string[];
  /** Compatibility level: 0 text, 1 multi-contact, 2 multi-picklist. */
  level?: number;
}

export interface ColumnsApi {
  add(sheetId: Id, columns: readonly ColumnCreate[], options?: CallOptions): Promise<Column[]>;
  get(sheetId: Id, columnId: Id, options?: CallOptions & { include?: readonly string[]; level?: number }): Promise<Column>;
  listPage(sheetId: Id, options?: ListColumnsOptions): Promise<IndexResult<Column>>;
  list(sheetId: Id, options?: Omit<ListColumnsOptions, 'page'>): AsyncIterable<Column>;
  update(sheetId: Id, columnId: Id, changes: ColumnUpdate, options?: CallOptions): Promise<Column>;
  delete(sheetId: Id, columnId: Id, options?: CallOptions): Promise<void>;
}

export interface WebhooksApi {
  /** After the 2026-06-03 sunset totals are -1: the iterator then reads until a short page. */
  listPage(options?: PageOptions): Promise<IndexResult<Webhook>>;
  list(options?: Omit<PageOptions, 'page'>): AsyncIterable<Webhook>;
  get(webhookId: Id, options?: CallOptions): Promise<Webhook>;
  create(webhook: WebhookCreate, options?: CallOptions): Promise<Webhook>;
  update(webhookId: Id, changes: WebhookUpdate, options?: CallOptions): Promise<Webhook>;
  delete(webhookId: Id, options?: CallOptions): Promise<void>;
  resetSharedSecret(webhookId: Id, options?: CallOptions): Promise<WebhookSharedSecret>;
}

export interface SheetListOptions extends PageOptions {
  /** Ask for `owner` and `ownerId` (include=ownerInfo); the service leaves them out otherwise. */
  includeOwnerInfo?: boolean;
}

export interface SheetsApi {
  listPage(options?: SheetListOptions): Promise<IndexResult<SheetSummary>>;
  list(options?: Omit<SheetListOptions, 'page'>): AsyncIterable<SheetSummary>;
}
