import type { z } from 'zod';
import { SeatflowError } from './seatflow-error.js';

/**
 * A stored record without the fields its creation wrote: after a Redis failover that dropped the creation and kept a
 * later write to the same key (a state, a count), the key holds only that later part. Reading that one record fails
 * with this error, naming it; listings skip it (`readableOnly`), so one damaged record never stops a sweep or a page
 * that lists the others.
 */
export class UnreadableRecordError extends SeatflowError {
  constructor(what: string, key: string, error: z.ZodError) {
    const fields = [...new Set(error.issues.map((issue) => issue.path.join('.')))].join(', ');
    super('RECORD_UNREADABLE', `${what} ${key} is missing ${fields} in Redis (its creation was lost, as in a failover that kept a later write)`, {
      hint: 'the record cannot be used; what it described may need to be made again',
    });
  }
}

/** Parses a stored record, or throws UnreadableRecordError naming it. */
export function parseRecord<T>(schema: z.ZodType<T, unknown>, raw: unknown, what: string, key: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UnreadableRecordError(what, key, parsed.error);
  return parsed.data;
}

/** Reads each record, leaving out (and telling `skipped` of) those that are unreadable; every other error throws. */
export async function readableOnly<T>(reads: readonly Promise<T | undefined>[], skipped?: (error: UnreadableRecordError) => void): Promise<T[]> {
  const skip = (error: unknown): undefined => {
    if (!(error instanceof UnreadableRecordError)) throw error;
    skipped?.(error);
    return undefined;
  };
  const records = await Promise.all(reads.map((read) => read.catch(skip)));
  return records.filter((record): record is Awaited<T> & T => record !== undefined);
}
