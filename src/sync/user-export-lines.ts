import { stringify } from 'csv-stringify/sync';
import { describeUnrecognized, type Timestamp, type UnrecognizedValue } from '../contract/index.js';
import { neutraliseCell, type ReportFormat } from '../queue/report-writer.js';
import type { LiveSeat, LiveUser } from './live-user.js';
import { isSeatField, type SeatField, type UserExportField } from './user-export-fields.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A value the service sent for an enumeration, known or not: an export shows what the service said. */
function raw(known: string | undefined, unrecognized: readonly UnrecognizedValue[] | undefined, field: string): string | undefined {
  return known ?? unrecognized?.find((value) => value.field === field)?.value;
}

function seatValue(seat: LiveSeat, field: SeatField): string | number | boolean | Timestamp | null | undefined {
  return field === 'seatType' ? raw(seat.seatType, seat.unrecognized, 'seatType') : seat[field];
}

/** Every unknown value of the user and their seats, e.g. `seatType "SUPER_SEAT"`. */
function allUnrecognized(user: LiveUser): UnrecognizedValue[] {
  return [...(user.unrecognized ?? []), ...user.seats.flatMap((seat) => seat.unrecognized ?? [])];
}

/** One field of a user as JSON: what a JSON Lines export holds and `readUserSnapshot` reads back. */
function jsonValue(user: LiveUser, field: Exclude<UserExportField, SeatField>): Json {
  switch (field) {
    case 'status':
      return raw(user.status, user.unrecognized, 'status') ?? null;
    case 'groupsOwned':
    case 'alternateEmails': {
      const value = user[field];
      return value === undefined ? null : typeof value === 'string' ? value : value.map((item) => ({ ...item }));
    }
    case 'unrecognized':
      return allUnrecognized(user).map((item) => ({ ...item }));
    default:
      return user[field] ?? null;
  }
}

/**
 * A user as one JSON object with the chosen fields; the seat fields nest under `seats` (one entry per plan, with its
 * planId), where the first seat field was asked for. A field without a value is null.
 */
export function userExportObject(user: LiveUser, fields: readonly UserExportField[]): Record<string, Json> {
  const seatFields = fields.filter(isSeatField);
  const record: Record<string, Json> = {};
  for (const field of fields) {
    if (!isSeatField(field)) {
      record[field] = jsonValue(user, field);
    } else if (!('seats' in record)) {
      record.seats = user.seats.map((seat) => {
        const entry: Record<string, Json> = { planId: seat.planId };
        for (const seatField of seatFields) entry[seatField] = seatValue(seat, seatField) ?? null;
        return entry;
      });
    }
  }
  return record;
}

/**
 * One CSV cell: numbers and booleans as they are, lists joined with "; " (a seat field lists one value per plan, in
 * the order of the planId cell), every text neutralised against formula injection.
 */
function csvCell(user: LiveUser, field: UserExportField): string {
  if (isSeatField(field)) return user.seats.map((seat) => text(seatValue(seat, field))).join('; ');
  switch (field) {
    case 'groupsOwned': {
      const groups = user.groupsOwned;
      return groups === undefined ? '' : typeof groups === 'string' ? groups : neutraliseCell(groups.map((group) => group.name).join('; '));
    }
    case 'alternateEmails': {
      const emails = user.alternateEmails;
      return emails === undefined ? '' : typeof emails === 'string' ? emails : neutraliseCell(emails.map((item) => item.email).join('; '));
    }
    case 'unrecognized':
      return neutraliseCell(describeUnrecognized(allUnrecognized(user)));
    case 'status':
      return text(raw(user.status, user.unrecognized, 'status'));
    default:
      return text(user[field]);
  }
}

function text(value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? neutraliseCell(value) : String(value);
}

/**
 * The export as text chunks, one user at a time (CSV with a header row, or JSON Lines), so that it streams to a file
 * or stdout without holding the organization in memory.
 */
export async function* userExportLines(users: AsyncIterable<LiveUser>, fields: readonly UserExportField[], format: ReportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([[...fields]]);
  for await (const user of users) {
    yield format === 'jsonl' ? `${JSON.stringify(userExportObject(user, fields))}\n` : stringify([fields.map((field) => csvCell(user, field))]);
  }
}
