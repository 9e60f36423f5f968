import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { createSeatflowMetrics } from '../../../src/control/metrics/seatflow-metrics.js';
import { lifecycleFigures } from '../../../src/control/metrics/lifecycle-gauges.js';
import type { UpcomingChange } from '../../../src/sync/hr-workflows.js';
import { controlDeps } from './control-test-deps.js';
import { getPage, signIn, textOf } from './dashboard-sign-in.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const NOW = Date.now();
const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW + hours * HOUR).toISOString();
const change = (kind: UpcomingChange['kind'], step: string, email: string, hours: number, extra: Partial<UpcomingChange> = {}): UpcomingChange => ({
  kind, step, email, dueAt: at(hours), due: hours <= 0, phase: 'scheduled', workflowId: kind === 'leaver' ? 'o00000000000a' : kind === 'joiner' ? 'j00000000000b' : 'm00000000000c', job: 'waiting', ...extra,
});
const CHANGES = [
  change('leaver', 'deactivate', 'leo@acme.example', -2, { due: true, job: 'queued' }),
  change('joiner', 'join', 'nina.<new>@acme.example', 5),
  change('mover', 'move', 'jordan@acme.example', 30),
  change('leaver', 'remove', 'mia@acme.example', 60, { phase: 'holding' }),
];

describe('dashboard: joiners, movers and leavers to come', () => {
  it('lists every step to come by day, in time order, with what happens, when, the phase and the workflow', async () => {
    app = buildControlApp(controlDeps({ upcoming: { upcoming: async () => CHANGES } }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/upcoming');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/upcoming" aria-current="page">Joiners, movers, leavers</a>');
    expect(page.body).toContain('hx-get="/upcoming/live" hx-trigger="every 10s"');
    expect(page.body).toContain('1 joiner, 1 mover and 2 leavers with a step to come');
    expect(page.body).toContain('<th scope="row" data-label="Person">nina.&lt;new&gt;@acme.example</th>');
    expect(page.body).not.toContain('<new>');
    const text = textOf(page.body);
    expect(text).toMatch(/leo@acme\.example Leaver leaves: deactivated .* due: a worker takes it scheduled o00000000000a/);
    expect(text).toMatch(/jordan@acme\.example Mover moves: seat changed for the new department or title .* in 1 d 6 h scheduled m00000000000c seatflow status m00000000000c/);
    expect(page.body).toContain('<a href="/offboardings/o00000000000a">o00000000000a</a>');
    const days = [...page.body.matchAll(/<h2 id="day-([\d-]+)">/g)].map((match) => match[1]);
    expect(days).toEqual([...new Set(CHANGES.map((c) => c.dueAt.slice(0, 10)))]);
    const live = await getPage(app, jar, '/upcoming/live', { 'hx-request': 'true' });
    expect(live.body.startsWith('<div id="upcoming-live" hx-get="/upcoming/live"')).toBe(true);
  });

  it('says when nothing is to come, and is absent without the workflows', async () => {
    app = buildControlApp(controlDeps({ upcoming: { upcoming: async () => [] } }));
    const jar = await signIn(app);
    expect((await getPage(app, jar, '/upcoming')).body).toContain('Nothing to come: no joiner, mover or leaver has a step waiting.');
    await app.close();
    app = buildControlApp(controlDeps());
    const without = await signIn(app);
    const page = await getPage(app, without, '/upcoming');
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('href="/upcoming"');
  });
});

describe('lifecycle gauges', () => {
  it('count people with a step to come by kind, those due within a day, and the overdue ones nobody took', () => {
    const figures = lifecycleFigures([...CHANGES, change('leaver', 'remove', 'leo@acme.example', 170, { phase: 'holding' })], NOW);
    // Leo counts once (his next step); Mia's removal is 60 h away.
    expect(figures).toEqual({
      upcoming: { joiner: 1, mover: 1, leaver: 2 },
      dueIn24h: { joiner: 1, mover: 0, leaver: 1 },
      overdue: { joiner: 0, mover: 0, leaver: 1 },
    });
  });

  it('are served on /metrics with a series per kind', async () => {
    const metrics = createSeatflowMetrics();
    metrics.watch({ upcoming: async () => CHANGES });
    const text = await metrics.registry.metrics();
    expect(text).toContain('seatflow_lifecycle_upcoming{kind="joiner"} 1');
    expect(text).toContain('seatflow_lifecycle_upcoming{kind="leaver"} 2');
    expect(text).toContain('seatflow_lifecycle_due_24h{kind="mover"} 0');
    expect(text).toContain('seatflow_lifecycle_overdue{kind="leaver"} 1');
  });
});
