import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { alternateEmailSchema, idSchema, recognize, SEAT_TYPES, timestampSchema, USER_STATUSES, type UnrecognizedValue } from '../contract/index.js';
import { UsageError } from '../core/seatflow-error.js';
import { UNKNOWN, type LiveSeat, type LiveUser } from './live-user.js';

/** Nulls stand for "no value" in an export; read them as absent. */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

const seatLineSchema = z.object({
  planId: idSchema,
  seatType: maybe(z.string()),
  isInternal: maybe(z.boolean()),
  provisionalExpirationDate: maybe(timestampSchema),
  seatTypeLastChangedAt: maybe(timestampSchema),
});

/** One line of a JSON Lines export (`userExportObject`): id and email always, the rest as the export chose. */
const snapshotLineSchema = z.object({
  id: idSchema,
  email: z.string().min(1),
  name: maybe(z.string()),
  firstName: maybe(z.string()),
  lastName: maybe(z.string()),
  status: maybe(z.string()),
  admin: maybe(z.boolean()),
  groupAdmin: maybe(z.boolean()),
  resourceViewer: maybe(z.boolean()),
  licensedSheetCreator: maybe(z.boolean()),
  seats: z.array(seatLineSchema).optional(),
  lastLogin: maybe(timestampSchema),
  groupsOwned: maybe(z.union([z.literal(UNKNOWN), z.array(z.object({ id: idSchema, name: z.string() }))])),
  alternateEmails: maybe(z.union([z.literal(UNKNOWN), z.array(alternateEmailSchema)])),
});
type SnapshotLine = z.output<typeof snapshotLineSchema>;

/** The object without its undefined fields: an absent value stays absent, as in a record read from the service. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** The line as a LiveUser, enumerations read as leniently as from the service (docs/service.md#reading-leniently). */
function liveUserOf(line: SnapshotLine): LiveUser {
  const { status, seats, ...rest } = line;
  const user: LiveUser = { ...defined(rest), seats: (seats ?? []).map(liveSeatOf) };
  const unrecognized: UnrecognizedValue[] = [];
  const known = recognize(USER_STATUSES, 'status', status, unrecognized);
  if (known !== undefined) user.status = known;
  if (unrecognized.length > 0) user.unrecognized = unrecognized;
  return user;
}

function liveSeatOf(line: z.output<typeof seatLineSchema>): LiveSeat {
  const { seatType, ...rest } = line;
  const seat: LiveSeat = defined(rest);
  const unrecognized: UnrecognizedValue[] = [];
  const known = recognize(SEAT_TYPES, 'seatType', seatType, unrecognized);
  if (known !== undefined) seat.seatType = known;
  if (unrecognized.length > 0) seat.unrecognized = unrecognized;
  return seat;
}

/**
 * Reads a JSON Lines export of `seatflow export users` back, one user at a time: the snapshot a sync can compare with
 * instead of the live organization. A line that is not such a record stops the read with its line number.
 */
export async function* readUserSnapshot(file: string): AsyncGenerator<LiveUser, void, undefined> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of lines) {
      number += 1;
      const trimmed = (number === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (trimmed === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(trimmed);
      } catch {
        throw snapshotError(file, number, 'is not JSON');
      }
      const parsed = snapshotLineSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw snapshotError(file, number, `is not an exported user: ${issue?.path.join('.') || 'the line'}: ${issue?.message ?? 'invalid'}`);
      }
      yield liveUserOf(parsed.data);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`snapshot ${file} does not exist`, 'Name a file written by seatflow export users --format jsonl.');
    throw error;
  } finally {
    lines.close();
  }
}

function snapshotError(file: string, line: number, problem: string): UsageError {
  return new UsageError(
    `snapshot ${file} line ${line} ${problem}`,
    'A snapshot is a JSON Lines file written by seatflow export users --format jsonl, with the id and email fields.',
  );
}
