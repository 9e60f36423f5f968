import { describe, expect, it } from 'vitest';
import { createBearerTokenCheck } from '../../../src/control/auth/bearer-token-check.js';

describe('createBearerTokenCheck', () => {
  const check = createBearerTokenCheck('s3cret-token');

  it('accepts the configured token after the Bearer scheme, in any case of the scheme', () => {
    expect(check('Bearer s3cret-token')).toBe(true);
    expect(check('bearer s3cret-token')).toBe(true);
  });

  it('refuses a missing header, another scheme, another token, a prefix or an extension of the token', () => {
    for (const header of [undefined, '', 'Basic s3cret-token', 's3cret-token', 'Bearer', 'Bearer s3cret', 'Bearer s3cret-token-and-more', 'Bearer s3cret-token x']) {
      expect(check(header), String(header)).toBe(false);
    }
  });
});
