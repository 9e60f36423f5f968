/**
 * What a cell's text looks like, to tell an ignored column that means something (a leave date, a transfer target)
 * from one that does not (a department). Whole cells only: "left 2026-12-04" in a notes column is prose, not a date.
 */

export type ValueShape = 'date' | 'email';

const MONTHS = [
  // English and German month names and their usual abbreviations: HR exports are written in both.
  'jan', 'january', 'januar', 'jän', 'jänner', 'feb', 'february', 'februar', 'mar', 'march', 'mär', 'märz', 'maerz',
  'apr', 'april', 'may', 'mai', 'jun', 'june', 'juni', 'jul', 'july', 'juli', 'aug', 'august', 'sep', 'sept',
  'september', 'oct', 'october', 'okt', 'oktober', 'nov', 'november', 'dec', 'december', 'dez', 'dezember',
].join('|');
const TIME = String.raw`(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:[ap]\.?m\.?)?\s*(?:Z|[+-]\d{2}:?\d{2}|UTC|GMT)?)?`;
/** Dates written with digits only: year first, or day and month first (either order: 04.12.2026, 12/04/2026). */
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\.?${TIME}$`, 'i');
const YEAR_LAST = new RegExp(String.raw`^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})\.?${TIME}$`, 'i');
const WORDED = [
  // 4 Dec 2026, 4. Dezember 2026, 04-Dec-2026
  new RegExp(String.raw`^\d{1,2}\.?[ -](?:${MONTHS})\.?[\s,-]*\d{2,4}${TIME}$`, 'i'),
  // December 4, 2026; Dec 4 2026
  new RegExp(String.raw`^(?:${MONTHS})\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}${TIME}$`, 'i'),
  // 20261204T170000Z (basic ISO-8601 with a time: without the time, eight digits may as well be an employee number)
  /^\d{8}T\d{4,6}Z?$/i,
];

/** A month and a day in some order: 12-34-56 is no date, 31.12.26 is. */
function plausible(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** Whether a cell is a date or a date-time in a form people or HR systems write. */
export function looksLikeDate(cell: string): boolean {
  const text = cell.trim();
  if (text.length < 6 || text.length > 40) return false;
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst !== null) return plausible(Number(yearFirst[2]), Number(yearFirst[3]));
  const yearLast = YEAR_LAST.exec(text);
  if (yearLast !== null) return plausible(Number(yearLast[2]), Number(yearLast[1])) || plausible(Number(yearLast[1]), Number(yearLast[2]));
  return WORDED.some((pattern) => pattern.test(text));
}

/** Whether a cell is an e-mail address, or several separated by `;`, `,` or `|`. */
export function looksLikeEmails(cell: string): boolean {
  const parts = cell.split(/[;,|]/).map((part) => part.trim()).filter((part) => part !== '');
  return parts.length > 0 && parts.every((part) => EMAIL.test(part.replace(/^.*<([^>]+)>$/, '$1')));
}

/** The shape of a cell that matters, if any. */
export function shapeOf(cell: string): ValueShape | undefined {
  // Every date has a digit and every address an @: most cells of a Department or Notes column stop here.
  if (!/[\d@]/.test(cell)) return undefined;
  if (cell.includes('@')) return looksLikeEmails(cell) ? 'email' : undefined;
  return looksLikeDate(cell) ? 'date' : undefined;
}
