import type { Timestamp } from '../../contract/index.js';

/** Writes a time as the request asked: ISO-8601 UTC without fractions, or epoch ms with numericDates=true. */
export type DateFormat = (epochMs: number) => Timestamp;

export const isoDates: DateFormat = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const numericDates: DateFormat = (ms) => ms;

/** The seat fields carry fractions on the real service (docs/service.md#identifiers-and-dates). */
export function isoWithFraction(format: DateFormat, ms: number): Timestamp {
  return format === numericDates ? ms : new Date(ms).toISOString();
}
