/**
 * JSON.parse that refuses to round: the service sends 64-bit ids as JSON numbers, and JSON.parse would silently turn
 * 9007199254740993 into 9007199254740992 (docs/service.md#identifiers-and-dates). Node 20 has no reviver `context.source`, so the raw text
 * is scanned for integer literals outside strings before parsing.
 */
export class UnsafeIntegerError extends Error {
  readonly literal: string;
  readonly offset: number;

  constructor(literal: string, offset: number) {
    super(`the response holds the integer ${literal} (at character ${offset}), beyond 2^53; it would lose precision`);
    this.name = 'UnsafeIntegerError';
    this.literal = literal;
    this.offset = offset;
  }
}

// Only a run of 16+ digits can exceed Number.MAX_SAFE_INTEGER (16 digits); most bodies skip the scan entirely.
const LONG_DIGIT_RUN = /\d{16,}/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function parseJsonSafely(text: string): unknown {
  if (LONG_DIGIT_RUN.test(text)) assertNoUnsafeIntegers(text);
  return JSON.parse(text) as unknown;
}

/** Throws UnsafeIntegerError on the first integer literal, outside strings, whose magnitude exceeds 2^53 - 1. */
export function assertNoUnsafeIntegers(text: string): void {
  let index = 0;
  const length = text.length;
  while (index < length) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      index = skipString(text, index + 1);
      continue;
    }
    if (char === 0x2d /* - */ || isDigit(char)) {
      const start = index;
      if (char === 0x2d) index += 1;
      while (index < length && isDigit(text.charCodeAt(index))) index += 1;
      const next = text.charCodeAt(index);
      const isInteger = !(next === 0x2e /* . */ || next === 0x65 /* e */ || next === 0x45 /* E */);
      const literal = text.slice(start, index);
      const digits = literal.startsWith('-') ? literal.slice(1) : literal;
      if (isInteger && digits.length >= 16 && BigInt(digits) > MAX_SAFE) {
        throw new UnsafeIntegerError(literal, start);
      }
      // A fraction or exponent is not an id; skip the rest of that number.
      while (index < length && isNumberTail(text.charCodeAt(index))) index += 1;
      continue;
    }
    index += 1;
  }
}

function skipString(text: string, index: number): number {
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x5c /* \ */) index += 2;
    else if (char === 0x22) return index + 1;
    else index += 1;
  }
  return index;
}

function isDigit(char: number): boolean {
  return char >= 0x30 && char <= 0x39;
}

function isNumberTail(char: number): boolean {
  return isDigit(char) || char === 0x2e || char === 0x65 || char === 0x45 || char === 0x2b || char === 0x2d;
}
