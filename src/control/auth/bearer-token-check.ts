import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an Authorization header carries the expected bearer token. Both sides are hashed first so that the
 * comparison takes the same time whatever the token's length, and timingSafeEqual never sees unequal lengths.
 */
export function createBearerTokenCheck(expected: string): (authorization: string | undefined) => boolean {
  const expectedDigest = digest(expected);
  return (authorization) => {
    if (authorization === undefined) return false;
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization);
    if (match?.[1] === undefined) return false;
    return timingSafeEqual(digest(match[1]), expectedDigest);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
