/**
 * Reads a Retry-After header as delay-seconds or an HTTP date (RFC 9110 §10.2.3). The real service documents no
 * Retry-After (docs/service.md#retries); the reference server sends seconds. Absent or unreadable → undefined, so the caller
 * falls back to its own backoff.
 */
export function parseRetryAfter(value: string | readonly string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Fractions are outside the RFC but cost nothing to honour.
  if (/^\d*\.\d+$/.test(text)) return Math.ceil(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
