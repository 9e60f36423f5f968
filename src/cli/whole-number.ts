import { UsageError } from '../core/seatflow-error.js';

/** Reads a flag that must be a whole number within bounds; anything else is refused input (exit 2). */
export function wholeNumber(flag: string, text: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${range}, got "${text}"`);
  }
  return value;
}
