import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchRedis } from '../../../../src/queue/redis/redis-watchdog.js';

/** A Redis the test freezes and thaws: a PING sent while frozen is answered when it thaws. */
function fakeRedis() {
  let frozen = false;
  let waiting: Array<() => void> = [];
  return {
    ping: () => (frozen ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve()),
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}

describe('watchRedis', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('says nothing while Redis answers, warns once past 5 s of silence, and gives up at the bound', async () => {
    const redis = fakeRedis();
    const said: string[] = [];
    const watch = watchRedis({
      ping: redis.ping,
      warnAfterMs: 5000,
      giveUpAfterMs: 20_000,
      onWaiting: (ms) => said.push(`waiting ${Math.round(ms / 1000)}`),
      onAnswered: (ms) => said.push(`answered ${Math.round(ms / 1000)}`),
      onGiveUp: (ms) => said.push(`gave up ${Math.round(ms / 1000)}`),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(said).toEqual([]);
    redis.freeze();
    await vi.advanceTimersByTimeAsync(25_000);
    expect(said).toEqual(['waiting 5', 'gave up 20']);
    watch.stop();
  });

  it('says once that Redis went and once that it is back, however long it waits, and warns again at the next outage', async () => {
    const redis = fakeRedis();
    const said: string[] = [];
    const watch = watchRedis({ ping: redis.ping, warnAfterMs: 5000, onWaiting: (ms) => said.push(`waiting ${Math.round(ms / 1000)}`), onAnswered: (ms) => said.push(`answered ${Math.round(ms / 1000)}`) });
    redis.freeze();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(said).toEqual(['waiting 5']);
    redis.thaw();
    await vi.advanceTimersByTimeAsync(1);
    expect(said.at(-1)).toMatch(/^answered (600|601)$/);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(said).toHaveLength(2);
    redis.freeze();
    await vi.advanceTimersByTimeAsync(6_000);
    expect(said.at(-1)).toBe('waiting 5');
    expect(said).toHaveLength(3);
    watch.stop();
  });

  it('does not blame Redis for a stretch in which this process itself did not run', async () => {
    const said: string[] = [];
    let clock = 0;
    const watch = watchRedis({ ping: () => Promise.resolve(), warnAfterMs: 5000, giveUpAfterMs: 10_000, now: () => clock, onWaiting: () => said.push('waiting'), onAnswered: () => said.push('answered'), onGiveUp: () => said.push('gave up') });
    clock += 1000;
    await vi.advanceTimersByTimeAsync(1000);
    // 30 s of synchronous work: the next tick comes 30 s late, before the PING's answer could be read.
    clock += 30_000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(said).toEqual([]);
    watch.stop();
  });
});
