import { describe, expect, it } from 'vitest';
import { buildControlApp } from '../../src/control/build-control-app.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { createScheduleBook } from '../../src/reconcile/schedule-book.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { controlDeps } from '../unit/control/control-test-deps.js';
import { getPage, signIn, textOf } from '../unit/control/dashboard-sign-in.js';

const batches = useBatchHarnesses();

describe('dashboard: schedules page over a schedule book in Redis', () => {
  it('shows the next run BullMQ computed for the cron and zone, and the last run the worker recorded', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const book = createScheduleBook({ redis: h.redisHandle, prefix: h.prefix, target: h.server.url, store: h.system.store, logger: createSilentLogger() });
    const app = buildControlApp(controlDeps({ batches: { system: h.system, api: h.api, redis: h.redisHandle.client }, schedules: book }));
    try {
      const added = await book.add({ name: 'weekly', policyPath: '/etc/seatflow/licences.json', apply: true, cron: '0 6 * * 1', tz: 'Europe/Berlin' });
      await book.add({ name: 'daily-dry', policyPath: '/etc/seatflow/dry.json', apply: false, cron: '30 7 * * *' });
      await book.recordRun('weekly', {
        runId: 'run-1',
        tick: '2026-11-16T05:00:00.000Z',
        finishedAt: '2026-11-16T05:00:03.000Z',
        applied: true,
        heldBecause: ['9 removals are more than the limit of 5'],
        plan: { change: 9, 'no-op': 20 },
        policySha256: 'c'.repeat(64),
        report: '/data/reconcile/weekly-run-1.csv',
      });
      const jar = await signIn(app);
      const page = await getPage(app, jar, '/schedules');
      expect(page.statusCode).toBe(200);
      const text = textOf(page.body);
      expect(added.next).toMatch(/T0[45]:00:00\.000Z$/); // 06:00 in Berlin is 05:00 or 04:00 UTC
      expect(text).toContain('weekly 0 6 * * 1 Europe/Berlin applies a run above guardrails.destructiveMaxCount');
      // The next run in the schedule's own zone (BullMQ computed it for 06:00 there), the UTC instant on hover.
      expect(text).toMatch(/licences\.json 20\d\d-\d\d-\d\d 06:00 Europe\/Berlin/);
      expect(page.body).toContain(`<time datetime="${added.next}" title="${added.next!.slice(0, 19).replace('T', ' ')} UTC">`);
      expect(text).toContain('changed nothing: 9 removals are more than the limit of 5 plan: 9 change, 20 no-op CSV · JSON');
      expect(text).toMatch(/daily-dry 30 7 \* \* \* UTC dry run dry\.json 20\S+ 07:30:00 UTC .* never —/);
    } finally {
      await app.close();
      await book.close();
    }
  });
});
