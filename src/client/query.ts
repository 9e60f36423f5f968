export type QueryValue = string | number | boolean | readonly string[] | undefined | null;
export type QueryValues = Record<string, QueryValue>;

/**
 * The query string as the service reads it (docs/service.md#transport): camelCase names, lists comma-joined in one parameter,
 * booleans `true`/`false`, absent and empty values left out.
 */
export function buildQuery(values: QueryValues): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    let text: string;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      text = value.map((item: string) => encodeURIComponent(item)).join(',');
    } else {
      text = encodeURIComponent(String(value));
    }
    pairs.push(`${encodeURIComponent(name)}=${text}`);
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
