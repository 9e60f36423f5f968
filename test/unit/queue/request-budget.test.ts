import { beforeEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../src/core/clock.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { createRedisClock } from '../../../src/queue/redis/redis-clock.js';
import { createRequestBudget, lateToleranceMs, type BudgetRate, type RequestBudget } from '../../../src/queue/request-budget.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const testRedis = useTestRedisClient();

/** A clock whose sleep records what it was asked to wait and waits at most 20 ms (Redis time moves on its own). */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    waits.push(ms);
    await new Promise((r) => setTimeout(r, Math.min(ms, 20)));
  };
  return { waits, now: () => Date.now(), sleep };
}

/** A clock whose waits all end together when the test opens it, then wait as asked; it records each wait. */
function gatedClock(): Clock & { waits: number[]; open: () => void } {
  const waits: number[] = [];
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let isOpen = false;
  void opened.then(() => (isOpen = true));
  const sleep = async (ms: number): Promise<void> => {
    waits.push(ms);
    await (isOpen ? new Promise((r) => setTimeout(r, ms)) : opened);
  };
  return { waits, now: () => Date.now(), sleep, open };
}

/** Budgets of one token on one Redis, as separate workers would hold them. */
function fleet(rate: BudgetRate, count: number, clock: Clock = recordingClock(), token = 'tok'): RequestBudget[] {
  const keys = createQueueKeys(testRedis.server.prefix());
  return Array.from({ length: count }, () => createRequestBudget({ redis: testRedis.client, keys, accessToken: token, rate, clock }));
}

async function until(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** When the test began: every wait the budget computes is shortened by no more than the real time passed since. */
let testStart = Date.now();
beforeEach(() => {
  testStart = Date.now();
});

/**
 * A wait the budget computed: the nominal wait, less what real time passed since the test began (Redis time moves on
 * between the calls, more on a busy machine), never more than the nominal wait (50 ms for rounding).
 */
const near = (value: number | undefined, expected: number) => {
  expect(value ?? Number.NaN).toBeLessThanOrEqual(expected + 50);
  expect(value ?? Number.NaN).toBeGreaterThanOrEqual(expected - (Date.now() - testStart) - 50);
};

describe('createRequestBudget', () => {
  // 60 per 60 s without headroom: one call per second once the bucket is spent.
  const rate: BudgetRate = { requests: 60, perSeconds: 60, headroom: 0 };

  it('lets a full bucket go at once, then paces at the refill rate; two budgets of one token drain one bucket', async () => {
    const clock = recordingClock();
    const [a, b] = fleet({ ...rate, burst: 4 }, 2, clock) as [RequestBudget, RequestBudget];
    for (let i = 0; i < 3; i += 1) {
      await a.beforeRequest({ operation: 'x' });
      await b.beforeRequest({ operation: 'x' });
    }
    // 4 calls from the bucket (two each), then the fifth and sixth wait for the refill: about 1 s, then 2 s.
    expect(clock.waits).toHaveLength(2);
    near(clock.waits[0], 1000);
    near(clock.waits[1], 2000);
    expect((await b.counters()).calls).toBe(6);
    // One bucket holds all six calls (two buckets would hold three each), less what leaked in the real time since the
    // test began: one call a second at this rate, more of it on a busy machine.
    expect((await a.state()).level + (Date.now() - testStart) / 1000).toBeGreaterThan(5.5);
  });

  it('holds one window of calls by default (burst auto = requests)', async () => {
    const clock = recordingClock();
    const [budget] = fleet({ requests: 5, perSeconds: 60, headroom: 0 }, 1, clock) as [RequestBudget];
    for (let i = 0; i < 6; i += 1) await budget.beforeRequest({ operation: 'x' });
    expect(clock.waits).toHaveLength(1);
    near(clock.waits[0], 12_000);
  });

  it('keeps the headroom of the bucket unused too, so that the end of a burst meets no 429', async () => {
    const clock = recordingClock();
    const [budget] = fleet({ requests: 60, perSeconds: 60, headroom: 0.1, burst: 10 }, 1, clock) as [RequestBudget];
    for (let i = 0; i < 10; i += 1) await budget.beforeRequest({ operation: 'x' });
    // 9 of the 10 go at once; the 10th waits for the refill (60 a minute less 10%: 1.11 s a call).
    expect(clock.waits).toHaveLength(1);
    near(clock.waits[0], 1111);
  });

  it('paces evenly from the first call with burst 1, and leaves the headroom unused', async () => {
    const clock = recordingClock();
    const [budget] = fleet({ requests: 60, perSeconds: 60, headroom: 0.5, burst: 1 }, 1, clock) as [RequestBudget];
    for (let i = 0; i < 3; i += 1) await budget.beforeRequest({ operation: 'x' });
    // Half the rate is kept unused: one call every 2 s.
    near(clock.waits[0], 2000);
    near(clock.waits[1], 4000);
  });

  it('charges an upload ten units', async () => {
    const clock = recordingClock();
    const [budget] = fleet({ ...rate, burst: 1 }, 1, clock) as [RequestBudget];
    await budget.beforeRequest({ operation: 'upload', cost: 10 });
    await budget.beforeRequest({ operation: 'x' });
    near(clock.waits[0], 9000);
    near(clock.waits[1], 10_000);
  });

  it('keeps separate buckets for separate tokens', async () => {
    const clock = recordingClock();
    const keys = createQueueKeys(testRedis.server.prefix());
    const a = createRequestBudget({ redis: testRedis.client, keys, accessToken: 'one', rate: { ...rate, burst: 1 }, clock });
    const b = createRequestBudget({ redis: testRedis.client, keys, accessToken: 'two', rate: { ...rate, burst: 1 }, clock });
    await a.beforeRequest({ operation: 'x' });
    await b.beforeRequest({ operation: 'x' });
    expect(clock.waits).toEqual([]);
  });

  it('keeps separate buckets for one token at separate simulations, and one bucket for the token at one service', async () => {
    const clock = recordingClock();
    const keys = createQueueKeys(testRedis.server.prefix());
    const at = (service?: string) => createRequestBudget({ redis: testRedis.client, keys, accessToken: 'demo-admin', ...(service === undefined ? {} : { service }), rate: { ...rate, burst: 1 }, clock });
    // A spent simulation's budget does not hold up the next one (both answer the same demo token).
    await at('http://127.0.0.1:40001/2.0').beforeRequest({ operation: 'x' });
    await at('http://127.0.0.1:40002/2.0').beforeRequest({ operation: 'x' });
    expect(clock.waits).toEqual([]);
    // The same simulation is one bucket, as the real service's token is.
    await at('http://127.0.0.1:40001/2.0').beforeRequest({ operation: 'x' });
    expect(clock.waits).toHaveLength(1);
  });

  it('after a 429 in a burst: lowers the capacity, records the bucket empty, and the whole fleet waits', async () => {
    const clock = recordingClock();
    // 6 a minute: one interval is 10 s, far longer than a busy machine takes between the calls below.
    const [a, b] = fleet({ requests: 6, perSeconds: 60, headroom: 0, burst: 40 }, 2, clock) as [RequestBudget, RequestBudget];
    for (let i = 0; i < 10; i += 1) await a.beforeRequest({ operation: 'x' });
    // The service refused the 11th call although this fleet thought 30 more would fit: its bucket is smaller.
    const refusedAt = Date.now();
    await a.onResponse({ operation: 'x', status: 429, errorCode: 4003 });
    const state = await b.state();
    expect(state.capacity).toBeLessThanOrEqual(20);
    expect(state.capacity).toBeGreaterThanOrEqual(3);
    expect(state.ratePerSecond).toBeCloseTo(0.1, 5);
    // No Retry-After: the pause is what the bucket needs to take the next call, one interval (10 s) from the 429.
    expect(state.pausedForMs).toBeGreaterThan(10_000 - (Date.now() - refusedAt) - 50);
    expect(state.pausedForMs).toBeLessThanOrEqual(10_000);
    expect(state.level).toBeGreaterThan(state.capacity - 0.01);
    // b (another worker) is held: its first reservation attempt reports the pause instead of reserving.
    const held = new AbortController();
    const done = b.beforeRequest({ operation: 'x', signal: held.signal }).then(() => 'went', () => 'held');
    await until(async () => clock.waits.length > 0);
    expect(clock.waits[0]).toBeGreaterThan(10_000 - (Date.now() - refusedAt) - 50);
    // Still held when let go (it would wait out the pause): it never went.
    held.abort();
    expect(await done).toBe('held');
    expect(await b.counters()).toEqual({ calls: 10, rateLimited: 1 });
  });

  it('grows the pause on 429s in a row, and learns a slower rate when pacing still meets 429s', async () => {
    const [budget] = fleet({ ...rate, burst: 5 }, 1) as [RequestBudget];
    await budget.onResponse({ operation: 'x', status: 429 });
    const first = await budget.state();
    // Recorded full: the next 429 comes while pacing, so it is the rate, not the capacity, that was too high.
    await budget.onResponse({ operation: 'x', status: 429 });
    const second = await budget.state();
    expect(second.ratePerSecond).toBeLessThan(first.ratePerSecond);
    expect(second.capacity).toBe(first.capacity);
    expect(second.pausedForMs).toBeGreaterThan(first.pausedForMs * 1.5);
    for (let i = 0; i < 12; i += 1) await budget.onResponse({ operation: 'x', status: 429 });
    const later = await budget.state();
    // Up to one window at most, and never below the floors.
    expect(later.pausedForMs).toBeLessThanOrEqual(60_000);
    expect(later.pausedForMs).toBeGreaterThan(10_000);
    expect(later.ratePerSecond).toBeGreaterThanOrEqual(0.1 - 1e-9);
  });

  it('uses Retry-After when the service sends one', async () => {
    const [a, b] = fleet(rate, 2) as [RequestBudget, RequestBudget];
    await a.onResponse({ operation: 'x', status: 429, errorCode: 4003, retryAfterMs: 5000 });
    const paused = await b.pausedFor();
    expect(paused).toBeGreaterThan(4000);
    expect(paused).toBeLessThanOrEqual(5000);
    expect(a.pauseAfter429(5000)).toBe(5000);
  });

  it('learns once from one overshoot: 429s of calls sent before the recorded one only count', async () => {
    const [budget] = fleet({ ...rate, burst: 40 }, 1) as [RequestBudget];
    for (let i = 0; i < 20; i += 1) await budget.beforeRequest({ operation: 'x' });
    await budget.onResponse({ operation: 'x', status: 429 });
    const after = await budget.state();
    // Sent 5 s ago, i.e. before the 429 above was recorded: the same overshoot.
    await budget.onResponse({ operation: 'x', status: 429, durationMs: 5000 });
    const same = await budget.state();
    expect(same.capacity).toBe(after.capacity);
    expect(same.ratePerSecond).toBe(after.ratePerSecond);
    expect((await budget.counters()).rateLimited).toBe(2);
  });

  it('counts a 429 once when the queue also extends the pause for it', async () => {
    const [budget] = fleet(rate, 1) as [RequestBudget];
    await budget.onResponse({ operation: 'x', status: 429, retryAfterMs: 2000 });
    // What the row processor does after the client reported the 429.
    await budget.pause(Math.max(await budget.pausedFor(), budget.pauseAfter429(2000)));
    expect((await budget.counters()).rateLimited).toBe(1);
  });

  it('raises the capacity and rate again while no 429 comes, and keeps the state for a restarted worker', async () => {
    // A 0.25 s window so that recovery (one step per calm window) is seen quickly.
    const fast: BudgetRate = { requests: 40, perSeconds: 0.25, headroom: 0 };
    const keys = createQueueKeys(testRedis.server.prefix());
    const first = createRequestBudget({ redis: testRedis.client, keys, accessToken: 'tok', rate: fast });
    for (let i = 0; i < 4; i += 1) await first.beforeRequest({ operation: 'x' });
    // Two 429s within one window (sent together: on a busy machine two awaited calls can be a window apart, and a
    // 429 a window after the last teaches the capacity again instead of the rate). Each says Retry-After 2 s: the
    // bucket stays full through the pause, so the second 429 teaches the rate however late the machine runs it
    // (without one, the pause is one 6 ms interval and a bucket leaked past it teaches the capacity again).
    const refused = { operation: 'x', status: 429, retryAfterMs: 2000 } as const;
    await Promise.all([first.onResponse(refused), first.onResponse(refused)]);
    const lowered = await first.state();
    expect(lowered.capacity).toBeLessThan(40);
    expect(lowered.ratePerSecond).toBeLessThan(160);
    // A new budget object (a restarted worker) sees the learned state (perhaps a step of recovery on: windows are
    // short here), then the recovery.
    const restarted = createRequestBudget({ redis: testRedis.client, keys, accessToken: 'tok', rate: fast });
    expect((await restarted.state()).capacity).toBeLessThan(40);
    await until(async () => (await restarted.state()).capacity > lowered.capacity);
    await until(async () => {
      const state = await restarted.state();
      return state.capacity === 40 && state.ratePerSecond > 159.99;
    });
  });

  it('loses and doubles no call while paused: every waiting call goes once, none during the pause', async () => {
    // 100 per second, a bucket of 5: most of the 30 calls wait for their place when the 429 comes.
    const [a, b] = fleet({ requests: 100, perSeconds: 1, headroom: 0, burst: 5 }, 2, systemClock) as [RequestBudget, RequestBudget];
    const resolvedAt: number[] = [];
    const calls = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).beforeRequest({ operation: 'x' }).then(() => void resolvedAt.push(Date.now())));
    await until(async () => resolvedAt.length >= 5);
    await a.onResponse({ operation: 'x', status: 429, retryAfterMs: 400 });
    const recordedAt = Date.now();
    const before = resolvedAt.length;
    await Promise.all(calls);
    expect(resolvedAt).toHaveLength(30);
    expect((await a.counters()).calls).toBe(30);
    const after = resolvedAt.slice(before);
    expect(after.length).toBeGreaterThan(0);
    for (const at of after) expect(at - recordedAt).toBeGreaterThanOrEqual(300);
  });

  it('charges a call anew when it goes long after its reserved slot, so that late calls and new ones together stay within the bucket', async () => {
    // Two calls a second, a bucket of three: a reserved place is 500 ms after the one before it, and a call may still go
    // on its reservation up to lateToleranceMs(500) = 1 s after its place.
    const budgetRate: BudgetRate = { requests: 2, perSeconds: 1, headroom: 0, burst: 3 };
    const keys = createQueueKeys(testRedis.server.prefix());
    // Worker A's waits end only when the test says (as when its process stalled, or its confirmations queued through a
    // Redis failover). The budget decides on Redis's clock and the test waits on it too, so a busy machine changes
    // nothing here, short of stalling this process for a whole second between A's last call and B's first (below).
    const held = gatedClock();
    const a = createRequestBudget({ redis: testRedis.client, keys, accessToken: 'tok', rate: budgetRate, clock: held });
    const late = Array.from({ length: 5 }, () => a.beforeRequest({ operation: 'x' }));
    // A spends the bucket (3 go) and reserves 2 places behind it, 500 and 1000 ms on.
    await until(async () => held.waits.length === 2);
    expect((await a.counters()).calls).toBe(3);
    // Both places pass, and so does their tolerance, while A is held up (on Redis's clock); the bucket leaks empty.
    const redisClock = createRedisClock(testRedis.client);
    const lastPlace = (await redisClock.now()) + Math.max(...held.waits);
    await until(async () => (await redisClock.now()) > lastPlace + lateToleranceMs(500) && (await a.state()).level === 0);
    held.open();
    await Promise.all(late);
    // A's two late calls went once each, charged when they went: the bucket now holds them.
    expect((await a.counters()).calls).toBe(5);
    // Worker B comes right after. Had A's late calls gone on their old places (leaked long ago), B's three calls would
    // all go at once on top of them: five in a bucket of three. Charged anew, they leave room for one.
    const bClock = recordingClock();
    const b = createRequestBudget({ redis: testRedis.client, keys, accessToken: 'tok', rate: budgetRate, clock: bClock });
    for (let i = 0; i < 3; i += 1) await b.beforeRequest({ operation: 'x' });
    expect(bClock.waits.length).toBeGreaterThan(0);
    expect((await b.counters()).calls).toBe(8);
    expect(lateToleranceMs(125)).toBe(500);
    expect(lateToleranceMs(400)).toBe(800);
  });

  it('reserves again when no replica took a reservation: that place passed during the wait, so it stays charged and the call is counted once', async () => {
    // One call every 10 s: the bucket's level barely leaks during the test.
    const slow: BudgetRate = { requests: 1, perSeconds: 10, headroom: 0, burst: 4 };
    const keys = createQueueKeys(testRedis.server.prefix());
    const alone = testRedis.client.duplicate();
    try {
      // This Redis has no replica: the reservation's WAIT runs out after 300 ms.
      const budget = createRequestBudget({ redis: alone, keys, accessToken: 'tok', rate: slow, clock: systemClock, replicaAcks: { count: 1, timeoutMs: 300 } });
      await budget.beforeRequest({ operation: 'x' });
      expect((await budget.counters()).calls).toBe(1);
      // The stale place and the one the call went on (gone on at once, the stale one would have been the only one).
      expect((await budget.state()).level).toBeGreaterThan(1.9);
      // The next reservations do not wait for a replica (the quiet period): one more place each.
      await budget.beforeRequest({ operation: 'x' });
      expect((await budget.counters()).calls).toBe(2);
      expect((await budget.state()).level).toBeLessThan(3.1);
    } finally {
      await alone.quit();
    }
  });

  it('never writes the token itself to Redis', async () => {
    const prefix = testRedis.server.prefix();
    const budget = createRequestBudget({ redis: testRedis.client, keys: createQueueKeys(prefix), accessToken: 'secret-token-value', rate, clock: recordingClock() });
    await budget.beforeRequest({ operation: 'x' });
    await budget.onResponse({ operation: 'x', status: 429 });
    await budget.pause(10);
    const keys = await testRedis.client.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toContain('secret-token-value');
  });
});
