/**
 * A value the service sent for an enumeration that seatflow does not know: a seat type or status added after this
 * release, say. Reading is lenient (docs/service.md#reading-leniently): the value is kept and named here instead of
 * failing the whole page, the typed field stays empty, and whoever classifies the record decides what it means for
 * that one record.
 */
export interface UnrecognizedValue {
  field: string;
  value: string;
}

/** `raw` when it is one of `known`; otherwise undefined, with the raw text added to `unrecognized` (null and absent add nothing). */
export function recognize<T extends string>(
  known: readonly T[],
  field: string,
  raw: string | null | undefined,
  unrecognized: UnrecognizedValue[],
): T | undefined {
  if (raw === undefined || raw === null) return undefined;
  if ((known as readonly string[]).includes(raw)) return raw as T;
  unrecognized.push({ field, value: raw });
  return undefined;
}

/** How a person reads the unrecognized values of one record, e.g. `seatType "SUPER_SEAT"`. */
export function describeUnrecognized(values: readonly UnrecognizedValue[]): string {
  return values.map((item) => `${item.field} "${item.value}"`).join(', ');
}
