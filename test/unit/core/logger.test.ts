import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';

function capture(): { stream: Writable; lines: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, lines: () => text };
}

describe('createLogger', () => {
  it('never writes an access token or Authorization header', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', pretty: false, destination: out.stream });
    logger.info({ accessToken: 'tok-123456', headers: { authorization: 'Bearer tok-123456' }, config: { accessToken: 'tok-123456' } }, 'calling');
    expect(out.lines()).toContain('calling');
    expect(out.lines()).not.toContain('tok-123456');
    expect(out.lines()).toContain('[REDACTED]');
  });
});
