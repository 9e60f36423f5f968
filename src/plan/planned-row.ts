import type { Action } from '../manifest/action.js';
import type { LocalFile } from '../manifest/local-file.js';
import type { ManifestFormat } from '../manifest/manifest-format.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import type { RowList } from '../manifest/row-store.js';

/** How the pre-flight classified one row. */
export const VERDICTS = ['change', 'no-op', 'refused', 'not-found', 'conflict', 'invalid'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Stable ids of the refusal rules, for reports and machines; `reason` carries the words for people. */
export const RULES = {
  ispDomain: 'isp-domain',
  outsidePlanDomain: 'outside-plan-domain',
  externallyManaged: 'externally-managed',
  reactivationWindow: 'reactivation-window',
  adminWithoutRemoveAdminStatus: 'admin-without-removeAdminStatus',
  ownsGroupsWithoutTransferTo: 'owns-groups-without-transferTo',
  /** A removal without a transfer target of a user whose groups the service does not list (1108 if they own one). */
  groupOwnershipUnknown: 'group-ownership-unknown',
  seatNotEligible: 'seat-not-eligible',
  guestForInternalUser: 'guest-for-internal-user',
  statusNotEligible: 'status-not-eligible',
  selfAccount: 'own-account',
  protectedAccount: 'protected-account',
  planAmbiguous: 'plan-ambiguous',
  transferTargetInvalid: 'transfer-target-invalid',
  transferTargetRemoved: 'transfer-target-removed',
  duplicate: 'duplicate-row',
  contradictory: 'contradictory-actions',
  emailIdMismatch: 'email-id-mismatch',
  alreadyExists: 'already-exists',
  primaryColumn: 'primary-column',
  ganttColumn: 'gantt-column-with-dependencies',
  webhookNotOwned: 'webhook-not-visible',
  webhookTerminal: 'webhook-terminal-status',
  alternateNotConfirmed: 'alternate-email-not-confirmed',
  invalidRow: 'invalid-row',
  fileTooLarge: 'file-too-large',
  columnTitleTaken: 'column-title-taken',
  columnIndexOutOfRange: 'column-index-out-of-range',
  alternateNotFound: 'not-an-alternate-email',
  /** The user holds as many alternate addresses as the service allows (1330). */
  alternateLimit: 'alternate-email-limit',
  /** Make primary: the domain of the primary (or the alternate) address is not validated for the plan (1186, 1187). */
  domainNotValidated: 'domain-not-validated',
  sheetNotFound: 'sheet-not-found',
  licensedSheetCreatorAdminOnly: 'licensed-sheet-creator-admin-only',
  unavailableOnGov: 'unavailable-on-gov',
  unknownValue: 'unknown-value',
  /** A revert row whose change cannot be undone (a removal, a deleted webhook, …), or whose outcome is unknown. */
  notInvertible: 'not-invertible',
} as const;
export type Rule = (typeof RULES)[keyof typeof RULES];

/** Ids the pre-flight resolved, so jobs never resolve e-mails again. */
export interface ResolvedTarget {
  userId?: number;
  email?: string;
  transferToUserId?: number;
  planId?: number;
  alternateEmailId?: number;
  sheetId?: number;
  columnId?: number;
  webhookId?: number;
  /**
   * set-profile-image: the user's profileImage.imageId before the batch ('' when none), so that the job's confirm can
   * tell the image it uploaded from the one that was there.
   */
  profileImageId?: string;
  /**
   * downgrade, upgrade, deactivate (a change): the seat (and admin flag) the pre-flight read, kept as the row's state
   * before for `seatflow revert` without another read when the row runs (docs/governance.md#revert).
   */
  seatBefore?: { seatType?: string; admin?: boolean };
  /**
   * update-column, update-webhook (a migration's rows), make-alternate-email-primary (a domain migration's): what the
   * row changes as the plan (or the step that queued the row) read it, in the shape the job type's `readBefore`
   * returns, and when it was read (ISO, on the service's clock). The row processor keeps it as the row's state before
   * for `seatflow revert` instead of reading again while that reading stands (plannedStateBefore,
   * plan-reading-stands.ts: the row runs within 15 minutes of it); after that it reads as before.
   */
  readAtPlan?: { readAt: string; state: Record<string, unknown> };
  /** set-profile-image, create-discussion with a file: the file checked when the manifest was read, uploaded as is. */
  upload?: LocalFile;
}

export interface PlannedRow {
  row: number;
  line: number;
  /** The parsed action; undefined only for verdict 'invalid' (a row that did not parse), see `problems`. */
  action: Action | undefined;
  /** The action named by the row, even when it did not parse (for reports of invalid rows). */
  actionName: string;
  verdict: Verdict;
  /** Why, in words a person understands (always set except for a plain 'change'). */
  reason?: string;
  rule?: Rule;
  /** For a refusal the service would answer with a documented code: that code, as the row would get it at run time. */
  errorCode?: number;
  target: ResolvedTarget;
  /** For verdict 'invalid': every problem of the row. */
  problems?: RowProblem[];
  /**
   * For verdict 'invalid': the e-mail the row gave, as written (it may be what made the row invalid), so that the
   * plan, summaries and reports still say whom the row was about.
   */
  rawEmail?: string;
}

/** What a classifier says of one row: its verdict with why, and the user or resource it acts on. */
export type Classification = Pick<PlannedRow, 'verdict' | 'reason' | 'rule' | 'errorCode'> & { target: ResolvedTarget };

export interface BatchPlanSummary {
  total: number;
  change: number;
  'no-op': number;
  refused: number;
  'not-found': number;
  conflict: number;
  invalid: number;
}

export interface BatchPlan {
  /** Every row in row order: a RowStore from the pre-flight (compact, each row read back as a copy), or an array. */
  rows: RowList<PlannedRow>;
  summary: BatchPlanSummary;
  /** HTTP calls the pre-flight spent against the service. */
  apiCalls: number;
  source: { path: string; sha256: string; format: ManifestFormat };
  /** Users in the organization, when the pre-flight learned it (for guardrails.destructiveMaxShare). */
  organizationUsers?: number;
  /** What the plan cannot know from the service and says once, under the rows (plan-notes.ts). */
  notes?: string[];
}
