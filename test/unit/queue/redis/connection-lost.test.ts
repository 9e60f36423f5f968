import { describe, expect, it } from 'vitest';
import { isConnectionLost, logBullmqError } from '../../../../src/queue/redis/connection-lost.js';
import type { Logger } from '../../../../src/core/logger.js';

/** A logger that keeps what was said at each level. */
function recordingLogger(): { logger: Logger; said: Array<[string, string]> } {
  const said: Array<[string, string]> = [];
  const at = (level: string) => (_fields: unknown, message: string) => void said.push([level, message]);
  return { logger: { debug: at('debug'), warn: at('warn') } as unknown as Logger, said };
}

describe('isConnectionLost', () => {
  it('knows the errors of a Redis that went away, and nothing else', () => {
    expect(isConnectionLost(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionLost(new Error('Connection is closed.'))).toBe(true);
    expect(isConnectionLost(new Error('read ECONNRESET'))).toBe(true);
    // Behind Sentinel, each reconnection attempt while no sentinel answers (soak logs: about ten a second, each a warning).
    expect(isConnectionLost(new Error('All sentinels are unreachable. Retrying from scratch after 10ms.'))).toBe(true);
    expect(isConnectionLost(new Error('ERR unknown command'))).toBe(false);
    expect(isConnectionLost('ECONNREFUSED')).toBe(false);
  });
});

describe('logBullmqError', () => {
  it('sends reconnection noise to debug and any other error to warn', () => {
    const { logger, said } = recordingLogger();
    const onError = logBullmqError(logger, 'step worker');
    onError(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    onError(new Error('Missing lock for job 7. moveToFinished'));
    expect(said).toEqual([
      ['debug', 'step worker connection error'],
      ['warn', 'step worker error'],
    ]);
  });
});
