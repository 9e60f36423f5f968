import { describe, expect, it } from 'vitest';
import { createDemoFixture } from '../../../src/server/demo/demo-organization.js';
import { loadFixture } from '../../../src/server/demo/load-fixture.js';
import { createFaultInjector, parseFaultSpec } from '../../../src/server/sim/faults.js';
import { createRateLimiter, parseRateLimit } from '../../../src/server/sim/rate-limit.js';
import { createIdGenerator } from '../../../src/server/state/ids.js';
import { createTestServer } from './sim-client.js';

describe('parseFaultSpec', () => {
  it('reads every kind of fault', () => {
    expect(parseFaultSpec('503:0.1,500:0.02,reset:0.01,delay:250ms:0.05,500-after:0.03,reset-after:0.04')).toEqual([
      { kind: 'status', status: 503, probability: 0.1 },
      { kind: 'status', status: 500, probability: 0.02 },
      { kind: 'reset', probability: 0.01 },
      { kind: 'delay', ms: 250, probability: 0.05 },
      { kind: 'status-after', status: 500, probability: 0.03 },
      { kind: 'reset-after', probability: 0.04 },
    ]);
  });

  it('refuses unknown kinds and probabilities above 1', () => {
    expect(() => parseFaultSpec('teapot:0.1')).toThrow(/unknown kind/);
    expect(() => parseFaultSpec('503:0.7,500:0.7')).toThrow(/more than 1/);
    expect(() => parseFaultSpec('503:x')).toThrow(/probability/);
  });

  it('draws the same faults for the same seed', () => {
    const draws = (seed: number) => {
      const injector = createFaultInjector('503:0.3,reset:0.2', seed);
      return Array.from({ length: 50 }, () => injector.draw()?.kind ?? '-').join('');
    };
    expect(draws(9)).toBe(draws(9));
    expect(draws(9)).not.toBe(draws(10));
  });

  it('applies an item ending in :writes to changes only, never to a read', () => {
    expect(parseFaultSpec('reset-after:1:writes')).toEqual([{ kind: 'reset-after', probability: 1, writesOnly: true }]);
    const injector = createFaultInjector('reset-after:1:writes,delay:5ms:0', 1);
    expect(['GET', 'POST', 'HEAD', 'PUT', 'DELETE'].map((method) => injector.draw(method)?.kind ?? '-')).toEqual(['-', 'reset-after', '-', 'reset-after', 'reset-after']);
  });
});

describe('rate limiter', () => {
  it('refills over the window and reports whole seconds to wait', () => {
    let now = 0;
    const limiter = createRateLimiter({ requests: 3, perSeconds: 60 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('t', 1).allowed)).toEqual([true, true, true]);
    expect(limiter.take('t', 1)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    now = 20_000;
    expect(limiter.take('t', 1).allowed).toBe(true);
  });

  it('holds a bucket of its own size when told, refilling at the same rate', () => {
    let now = 0;
    // 60 per 60 s (one a second), but a bucket of 2: a fresh token gets 2 at once, not 60.
    const limiter = createRateLimiter({ requests: 60, perSeconds: 60, bucket: 2 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('t', 1).allowed)).toEqual([true, true, false]);
    now = 1000;
    expect(limiter.take('t', 1).allowed).toBe(true);
    // Idle for a minute: the bucket holds 2, not a minute's worth.
    now = 61_000;
    expect([1, 2, 3].map(() => limiter.take('t', 1).allowed)).toEqual([true, true, false]);
    // An upload (10) above the whole bucket takes the full bucket.
    now = 63_000;
    expect(limiter.take('t', 10).allowed).toBe(true);
  });

  it('parses N/SECONDS, N/SECONDS:BUCKET and off', () => {
    expect(parseRateLimit('300/60')).toEqual({ requests: 300, perSeconds: 60 });
    expect(parseRateLimit('300/60:50')).toEqual({ requests: 300, perSeconds: 60, bucket: 50 });
    expect(parseRateLimit('300/60', 40)).toEqual({ requests: 300, perSeconds: 60, bucket: 40 });
    expect(() => parseRateLimit('300/60:0')).toThrow();
    expect(parseRateLimit('off')).toBe('off');
    expect(() => parseRateLimit('lots')).toThrow();
  });
});

describe('ids and demo data', () => {
  it('issues deterministic 16-digit ids below 2^53', () => {
    const a = createIdGenerator('x');
    const b = createIdGenerator('x');
    const ids = Array.from({ length: 1000 }, () => a.next());
    expect(ids.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b.next()));
    expect(ids.every((id) => Number.isSafeInteger(id) && String(id).length === 16)).toBe(true);
    expect(new Set(ids).size).toBe(1000);
  });

  it('seeds the same demo organization on every start', () => {
    const one = loadFixture(createDemoFixture(), 0);
    const two = loadFixture(createDemoFixture(), 0);
    expect(one.usersByEmail.get('dana.whitfield@acme.example')).toBe(two.usersByEmail.get('dana.whitfield@acme.example'));
    expect(one.sheets.has(2094857361029384)).toBe(true);
    const statuses = new Set([...one.users.values()].map((u) => u.status));
    expect([...statuses].sort()).toEqual(['ACTIVE', 'DEACTIVATED', 'DECLINED', 'PENDING']);
  });

  it('generates a 100,000-user organization and finds 100 of them by e-mail', async () => {
    const sim = createTestServer({ users: 100_000 });
    const emails = [...sim.context.state.users.values()].slice(1000, 1100).map((u) => u.email);
    const res = await sim.call('GET', `/users?email=${emails.join(',')}`);
    expect(res.body.totalCount).toBe(100);
    expect(sim.context.state.users.size).toBe(100_017);
    await sim.app.close();
  });
});
