/**
 * Removes access tokens from text before it is kept anywhere (errors, logs, reports). Tokens are redacted by value
 * when known, and any `Bearer xxx` is redacted by shape, so a token seatflow never saw is not printed either.
 */
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

export const REDACTED = '[REDACTED]';

export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let out = text.replace(BEARER, `$1${REDACTED}`);
  for (const secret of knownSecrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}
