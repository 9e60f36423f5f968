import { describe, expect, it } from 'vitest';
import { redactSecrets, REDACTED } from '../../../src/core/redact.js';

describe('redactSecrets', () => {
  it('removes a Bearer token by shape', () => {
    expect(redactSecrets('Authorization: Bearer abc.DEF-123_x')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('removes known secrets wherever they appear', () => {
    expect(redactSecrets('token=s3cr3t-token in url ?t=s3cr3t-token', ['s3cr3t-token'])).toBe(
      `token=${REDACTED} in url ?t=${REDACTED}`,
    );
  });

  it('leaves text without secrets alone', () => {
    expect(redactSecrets('nothing to hide', ['abcd'])).toBe('nothing to hide');
  });
});
