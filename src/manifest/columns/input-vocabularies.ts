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

/** Every input kind, for the docs' table and its test. */
export const INPUT_VOCABULARIES: readonly ColumnVocabulary<string>[] = [MANIFEST_COLUMNS, LEAVERS_COLUMNS, SOURCE_OF_TRUTH_COLUMNS];
