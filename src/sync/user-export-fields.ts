import { UsageError } from '../core/seatflow-error.js';
import { suggest } from '../manifest/suggest.js';
import type { LiveReadNeeds } from './live-read-plan.js';

/** Every column `seatflow export users` can write, in their default order. */
export const USER_EXPORT_FIELDS = [
  'id',
  'email',
  'name',
  'firstName',
  'lastName',
  'status',
  'admin',
  'groupAdmin',
  'resourceViewer',
  'licensedSheetCreator',
  'planId',
  'seatType',
  'isInternal',
  'provisionalExpirationDate',
  'seatTypeLastChangedAt',
  'lastLogin',
  'groupsOwned',
  'alternateEmails',
  'unrecognized',
] as const;
export type UserExportField = (typeof USER_EXPORT_FIELDS)[number];

/** The fields of one seat: a user has one per plan read, so a JSON Lines record nests them under `seats`. */
const SEAT_FIELDS = ['planId', 'seatType', 'isInternal', 'provisionalExpirationDate', 'seatTypeLastChangedAt'] as const satisfies readonly UserExportField[];
export type SeatField = (typeof SEAT_FIELDS)[number];

export function isSeatField(field: UserExportField): field is SeatField {
  return (SEAT_FIELDS as readonly string[]).includes(field);
}

/**
 * The columns written without `--fields`: everything the listings carry, within one call per 100 users. Left out:
 * alternateEmails (one call per user), firstName/lastName (name has them), unrecognized (the raw value is in its column).
 */
const LEFT_OUT_BY_DEFAULT: readonly UserExportField[] = ['firstName', 'lastName', 'alternateEmails', 'unrecognized'];
export const DEFAULT_USER_EXPORT_FIELDS: readonly UserExportField[] = USER_EXPORT_FIELDS.filter((field) => !LEFT_OUT_BY_DEFAULT.includes(field));

/** `--fields a,b,c` → the fields in that order, each once; an unknown name is refused with the closest known one. */
export function parseUserExportFields(text: string | undefined): UserExportField[] {
  if (text === undefined) return [...DEFAULT_USER_EXPORT_FIELDS];
  const names = text.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new UsageError('--fields names no field', `Name some of: ${USER_EXPORT_FIELDS.join(', ')}.`);
  const fields: UserExportField[] = [];
  for (const name of names) {
    const field = USER_EXPORT_FIELDS.find((known) => known.toLowerCase() === name.toLowerCase());
    if (field === undefined) {
      const close = suggest(name, USER_EXPORT_FIELDS);
      throw new UsageError(`--fields: no field "${name}"${close === undefined ? '' : ` (did you mean "${close}"?)`}`, `Fields: ${USER_EXPORT_FIELDS.join(', ')}.`);
    }
    if (!fields.includes(field)) fields.push(field);
  }
  return fields;
}

/** What the read must learn for these fields; each costs what `planLiveRead` counts. */
export function needsOf(fields: readonly UserExportField[]): LiveReadNeeds {
  return {
    seats: fields.some(isSeatField),
    lastLogin: fields.includes('lastLogin'),
    alternateEmails: fields.includes('alternateEmails'),
    groupsOwned: fields.includes('groupsOwned'),
  };
}
