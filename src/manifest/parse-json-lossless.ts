import { isSafeNumber, parse } from 'lossless-json';

/** A run of digits long enough to be an integer beyond 2^53 (9007199254740992 has 16 digits). */
const LONG_DIGITS = /\d{16,}/g;

/**
 * JSON.parse, except that a number JSON.parse would round (an id beyond 2^53) comes back as the digits written, so
 * that validation can show it as written instead of a rounded neighbour. Documents without such a number (nearly
 * all) take JSON.parse alone; the others are parsed twice (JSON.parse first, for its error messages on bad JSON).
 */
export function parseJsonLossless(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!hasUnsafeDigits(text)) return value;
  return parse(text, undefined, (digits) => (isSafeNumber(digits) ? Number(digits) : digits));
}

function hasUnsafeDigits(text: string): boolean {
  for (const [digits] of text.matchAll(LONG_DIGITS)) if (!Number.isSafeInteger(Number(digits))) return true;
  return false;
}
