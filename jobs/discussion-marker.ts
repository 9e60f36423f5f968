import { createHash } from 'node:crypto';

/**
 * An invisible tag appended to the text of a discussion seatflow creates, so that confirm can tell "the discussion
 * this row created" from any other discussion with the same words (an earlier note, a recurring message).
 *
 * Why invisible characters: the first comment's text is the only field of a discussion that seatflow writes and can
 * read back (the title is derived from it, there is no external id), and a visible tag would show in the sheet.
 * The tag is U+2063 (invisible separator) followed by 32 characters from {U+200B, U+200C, U+200D, U+2060}: 64 bits of
 * sha256(batchId, row), the same on every attempt of a row and different for every other row and batch.
 *
 * Limits: the tag travels with the text when someone copies it; a service that strips these characters would make
 * confirm answer not-done (a retry after an uncertain create could then post a second discussion). The contract
 * test proves the reference server keeps them.
 */
const DIGITS = ['\u200B', '\u200C', '\u200D', '\u2060'] as const;
const START = '\u2063';
// An alternation, not a character class: U+200D joins characters, which a class would make ambiguous.
const TAG = new RegExp(`${START}(?:${DIGITS.join('|')}){32}`, 'gu');

export function discussionMarker(batchId: string, row: number): string {
  const digest = createHash('sha256').update(`${batchId}\u0000${row}`).digest();
  let tag = START;
  for (const byte of digest.subarray(0, 8)) {
    for (let shift = 6; shift >= 0; shift -= 2) tag += DIGITS[(byte >> shift) & 3];
  }
  return tag;
}

/** The text as a person wrote it: every tag removed. */
export function withoutMarkers(text: string): string {
  return text.replace(TAG, '');
}
