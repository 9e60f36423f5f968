/**
 * "1 row", "2 rows", "0 rows": a count and its noun, in the one way every message says it. `many` for nouns whose
 * plural is not the noun and an s ("1 entry", "2 entries").
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
