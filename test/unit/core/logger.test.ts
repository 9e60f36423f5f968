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
  it.each([false, true])('never writes an access token or Authorization header (pretty: %s)', (pretty) => {
    const out = capture();
    const logger = createLogger({ level: 'info', pretty, destination: out.stream });
    logger.info({ accessToken: 'tok-123456', headers: { authorization: 'Bearer tok-123456' }, config: { accessToken: 'tok-123456' } }, 'calling');
    expect(out.lines()).toContain('calling');
    expect(out.lines()).not.toContain('tok-123456');
    expect(out.lines()).toContain('[REDACTED]');
  });

  it('never writes a webhook\'s shared secret', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', pretty: false, destination: out.stream });
    logger.info({ sharedSecret: 'c0ffee-secret', webhook: { id: 1, sharedSecret: 'c0ffee-secret' } }, 'rotated');
    expect(out.lines()).toContain('rotated');
    expect(out.lines()).not.toContain('c0ffee-secret');
  });

  it('shows control characters and bidirectional overrides of values as escapes in lines for people, keeping line breaks', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', pretty: true, destination: out.stream });
    logger.warn({ email: 'a\u001b[2Jb@acme.example', detail: { name: 'x\u202Eexe.pdf' }, rows: ['\u009b31m'] }, 'row of \u001b]0;title\u0007 failed\nsecond line');
    const text = out.lines();
    expect(text).toContain('a\\u001b[2Jb@acme.example');
    expect(text).toContain('x\\u202eexe.pdf');
    expect(text).toContain('\\u009b31m');
    expect(text).toContain('row of \\u001b]0;title\\u0007 failed\nsecond line');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('leaves JSON lines as JSON writes them (programs read them)', () => {
    const out = capture();
    createLogger({ level: 'info', pretty: false, destination: out.stream }).info({ email: 'x\u202Ey' }, 'm');
    expect((JSON.parse(out.lines()) as { email: string }).email).toBe('x\u202Ey');
  });
});
