import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying a delivery's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'seatflow-signature';

/**
 * Signs a body for its receiver: HMAC-SHA256 with the destination's secret over `<timestamp>.<body>`, so the receiver
 * can check the body came from seatflow and is recent (refusing old timestamps stops a replay).
 */
export function signatureOf(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

/**
 * What a receiver does with the header (docs/governance.md#verifying-a-delivery shows it): true when the signature
 * matches the body and the timestamp is within `toleranceSeconds` of now.
 */
export function verifySignature(secret: string, header: string, body: string, nowSeconds = Math.floor(Date.now() / 1000), toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || parts.v1 === undefined || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
