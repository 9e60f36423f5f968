import { describe, expect, it } from 'vitest';
import { createSmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { createQueueKeys, tokenKey } from '../../src/queue/queue-keys.js';
import { startReferenceServer } from '../../src/server/index.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { runSeatflow } from '../helpers/run-seatflow.js';
import { Redis } from 'ioredis';

const batches = useBatchHarnesses();

describe('the request budget in a running fleet', () => {
  it('counts each 429 the service answers exactly once, and changes each user once', async () => {
    // The service refills 10 a second from a bucket of 5; the fleet is told 100 a second with a bucket of 100.
    const h = await batches.open({ rateLimit: { requests: 10, perSeconds: 1, bucket: 5 } });
    const budget = h.system.budget({ accessToken: h.server.tokens.admin, rate: { requests: 100, perSeconds: 1, headroom: 0 } });
    let answered429 = 0;
    const api = createSmartsheetClient({
      baseUrl: h.server.url,
      accessToken: h.server.tokens.admin,
      beforeRequest: (info) => budget.beforeRequest(info),
      onResponse: (info) => {
        if (info.status === 429) answered429 += 1;
        void budget.onResponse(info).catch(() => undefined);
      },
    });
    try {
      const emails = await h.deactivatableEmails(30);
      const plan = await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)]));
      const { batch } = await h.system.submit(plan);
      h.startWorkers({ concurrency: 4, api, budget });
      h.startWorkers({ concurrency: 4, api, budget });
      const done = await h.waitForState(batch.id, ['finished'], 90_000);
      expect(done.counts).toMatchObject({ succeeded: 30, failed: 0 });
      expect(answered429).toBeGreaterThan(0);
      expect((await budget.counters()).rateLimited).toBe(answered429);
      // The fleet learned that the service holds less than it was told.
      const state = await budget.state();
      expect(state.capacity < 100 || state.ratePerSecond < 100).toBe(true);
      const perUser = new Map<number, number>();
      for (const m of await h.mutations()) if (m.operation === 'deactivateUser' && m.userId !== undefined) perUser.set(m.userId, (perUser.get(m.userId) ?? 0) + 1);
      expect([...perUser.values()]).toEqual(Array(30).fill(1));
    } finally {
      await api.close();
    }
  });

  it('seatflow worker checks its token through the shared budget', async () => {
    const sim = await startReferenceServer({ rateLimit: 'off' });
    const redis = new Redis(batches.redis().url);
    const prefix = batches.redis().prefix();
    try {
      const { code } = await runSeatflow(['worker'], { SMARTSHEET_API_BASE: sim.url, SMARTSHEET_ACCESS_TOKEN: 'not-a-token', REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: prefix });
      expect(code).toBe(2);
      // The refused check was one call of that token's budget.
      expect(await redis.hget(createQueueKeys(prefix).calls(tokenKey('not-a-token')), 'calls')).toBe('1');
    } finally {
      await redis.quit();
      await sim.close();
    }
  });
});
