import { MANIFEST_FIELD_NAMES } from '../field-names.js';
import { createColumnVocabulary, type ColumnVocabulary } from './column-vocabulary.js';

/**
 * The column names of every input seatflow reads, in one place: each input kind registers its fields and their
 * spellings here and gets the header rules of column-vocabulary.ts. docs/manifests.md, "Column names", is this file
 * as a table (a test keeps the two alike).
 */

/** A person's e-mail, however exports spell it: the same in every input. */
const EMAIL_ALIASES = ['email address', 'e-mail address', 'mail', 'primary email', 'user email', 'work email', 'work email address', 'business email', 'company email'];
/** Who takes over a removed user's sheets and groups: the same in every input that has one. */
const TRANSFER_TO_ALIASES = ['transfer to email', 'transfer to user id', 'transfer to id', 'transfer target', 'successor', 'successor email', 'handover to'];

const passIgnoreColumn = (column: string) => `pass --ignore-column "${column}"`;

/** Manifests (CSV, JSON, JSON Lines): the fields of the actions (docs/manifests.md, "Actions and their fields"). */
const MANIFEST_ALIASES: Record<string, readonly string[]> = {
  action: ['operation', 'op'],
  email: EMAIL_ALIASES,
  userId: ['id'],
  firstName: ['given name', 'first'],
  lastName: ['surname', 'family name', 'last'],
  transferTo: TRANSFER_TO_ALIASES,
  seatType: ['seat'],
  planId: ['plan'],
  alternateEmail: ['alt email', 'alternate', 'alternate email address', 'new email'],
  image: ['profile image', 'image path', 'image file'],
  type: ['column type'],
  columnTitle: ['column'],
  comment: ['text', 'comment text'],
  file: ['attachment', 'file path'],
};

export const MANIFEST_COLUMNS: ColumnVocabulary<string> = createColumnVocabulary({
  name: 'manifest',
  fields: MANIFEST_FIELD_NAMES.map((name) => ({ name, aliases: MANIFEST_ALIASES[name] ?? [] })),
  refuseIgnored: {
    date: () => 'A manifest has no date field: every row runs when the batch runs (for leave dates, use seatflow offboard)',
    email: () => 'If it names a transfer target or an alternate address, call the column transferTo or alternateEmail',
  },
  ignoreHint: passIgnoreColumn,
  ignoreOption: '--ignore-column',
});

export type LeaversField = 'email' | 'leaveDate' | 'leaveAt' | 'transferTo';

/** Leavers files of `seatflow offboard` (docs/offboarding.md, "The leavers file"). */
export const LEAVERS_COLUMNS: ColumnVocabulary<LeaversField> = createColumnVocabulary<LeaversField>({
  name: 'leavers file',
  fields: [
    { name: 'email', aliases: [...EMAIL_ALIASES, 'employee email', 'user'], option: '--email-column' },
    {
      // The last day the person works: a date alone ends access at the end of that day (offboarding.lastDayEndsAt).
      name: 'leaveDate',
      aliases: ['leave date', 'leave on', 'last day', 'last working day', 'last day worked', 'last day of work', 'last workday', 'last date', 'termination date', 'end date', 'exit date'],
      option: '--leave-date-column',
    },
    {
      // The moment access ends: a date alone means the start of that day.
      name: 'leaveAt',
      aliases: ['leave at', 'leave date time', 'employee leave date time', 'effective date', 'access ends', 'deactivate at', 'deactivate on', 'deactivation date'],
      option: '--leave-at-column',
    },
    // In a leavers file the manager is who takes over unless the file says otherwise.
    { name: 'transferTo', aliases: [...TRANSFER_TO_ALIASES, 'manager', 'manager email'], option: '--transfer-column' },
  ],
  refuseIgnored: {
    date: (column) => `If it is the leaver's last day, pass --leave-date-column "${column}"; if it is the moment access ends, --leave-at-column "${column}"`,
    email: (column) => `If it names who takes over the leaver's sheets and groups, pass --transfer-column "${column}"; if it is the leaver's own address, --email-column "${column}"`,
  },
  ignoreHint: passIgnoreColumn,
  ignoreOption: '--ignore-column',
});

/** The source-of-truth CSVs a licence policy names (`inFile`, `notInFile`; docs/reconciliation.md). */
export const SOURCE_OF_TRUTH_COLUMNS: ColumnVocabulary<'email'> = createColumnVocabulary<'email'>({
  name: 'source-of-truth file',
  fields: [{ name: 'email', aliases: EMAIL_ALIASES }],
  refuseIgnored: {
    date: () => 'A policy reads no date from a source-of-truth file: a rule matches whoever is listed, whatever the date',
    email: () => 'A source-of-truth file names each person in its email column only',
  },
  ignoreHint: (column) => `add "${column}" to the policy's "ignoreColumns"`,
  ignoreOption: 'the policy\'s "ignoreColumns"',
});

export const HR_EXPORT_FIELDS = [
  'employeeId', 'email', 'status', 'startDate', 'endDate', 'department', 'title', 'managerEmail', 'location',
  'firstName', 'lastName', 'effectiveDate', 'timeZone', 'generatedAt',
] as const;
export type HrExportField = (typeof HR_EXPORT_FIELDS)[number];

/** How a policy names the column of an HR export field (its `"columns"`), for messages. */
const inPolicy = (field: HrExportField) => `the policy's columns.${field}`;

/**
 * HR exports read by `seatflow sync` (docs/sync.md, "The HR export"): the nightly file of every employee an HR system
 * writes. Its column names differ per HR system; the policy's `"columns"` names the ones these spellings miss.
 */
export const HR_EXPORT_COLUMNS: ColumnVocabulary<HrExportField> = createColumnVocabulary<HrExportField>({
  name: 'HR export',
  fields: [
    { name: 'employeeId', aliases: ['employee id', 'employee number', 'employee no', 'employee #', 'personnel number', 'worker id', 'emp id'], option: inPolicy('employeeId') },
    { name: 'email', aliases: [...EMAIL_ALIASES, 'employee email'], option: inPolicy('email') },
    { name: 'status', aliases: ['employee status', 'worker status', 'active status'], option: inPolicy('status') },
    // The first day the person works: a date alone is the start of that day (access from then on).
    { name: 'startDate', aliases: ['start date', 'hire date', 'date of hire', 'hired on', 'first day', 'join date', 'joining date'], option: inPolicy('startDate') },
    // The last day the person works, as in a leavers file: a date alone ends access at the end of that day.
    { name: 'endDate', aliases: ['end date', 'termination date', 'term date', 'last day', 'last working day', 'last day of work', 'exit date', 'separation date', 'leave date'], option: inPolicy('endDate') },
    { name: 'department', aliases: ['dept', 'department name', 'supervisory organization', 'organization unit'], option: inPolicy('department') },
    { name: 'title', aliases: ['job title', 'business title', 'position title', 'job profile'], option: inPolicy('title') },
    { name: 'managerEmail', aliases: ['manager', 'manager email', 'manager work email', 'supervisor email', 'reports to email'], option: inPolicy('managerEmail') },
    { name: 'location', aliases: ['work location', 'office', 'site', 'location name'], option: inPolicy('location') },
    { name: 'firstName', aliases: ['first name', 'given name', 'legal first name'], option: inPolicy('firstName') },
    { name: 'lastName', aliases: ['last name', 'surname', 'family name', 'legal last name'], option: inPolicy('lastName') },
    // When a change of department, title or location takes effect (a mover's seat changes then).
    { name: 'effectiveDate', aliases: ['effective date', 'change date', 'effective as of'], option: inPolicy('effectiveDate') },
    { name: 'timeZone', aliases: ['time zone', 'tz', 'timezone'], option: inPolicy('timeZone') },
    // When the HR system wrote the export (the same in every row): an export older than the last accepted one is refused.
    { name: 'generatedAt', aliases: ['generated at', 'exported at', 'export date', 'extract date', 'report date', 'run date'], option: inPolicy('generatedAt') },
  ],
  refuseIgnored: {
    date: (column) => `If it is the start date, the end date or when a change takes effect, map it in the policy's "columns" (e.g. {"startDate": "${column}"})`,
    email: (column) => `If it is the employee's work e-mail or their manager's, map it in the policy's "columns" (e.g. {"managerEmail": "${column}"})`,
  },
  ignoreHint: (column) => `list "${column}" in the policy's "ignoreColumns"`,
  ignoreOption: 'the policy\'s "ignoreColumns"',
});

/** Every input kind, for the docs' table and its test. */
export const INPUT_VOCABULARIES: readonly ColumnVocabulary<string>[] = [MANIFEST_COLUMNS, LEAVERS_COLUMNS, SOURCE_OF_TRUTH_COLUMNS, HR_EXPORT_COLUMNS];
