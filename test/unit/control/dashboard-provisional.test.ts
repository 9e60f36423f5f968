import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { createSeatflowMetrics } from '../../../src/control/metrics/seatflow-metrics.js';
import type { ProvisionalSeat } from '../../../src/events/provisional-tracker.js';
import { auth, controlDeps } from './control-test-deps.js';
import { getPage, signIn, textOf } from './dashboard-sign-in.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const NOW = Date.parse('2026-11-23T10:00:00Z');
const DAY = 86_400_000;
const seat = (email: string, days: number): ProvisionalSeat => ({ userId: email.length, email, planId: 5420192837465012, expiresAt: new Date(NOW + days * DAY).toISOString(), from: 'event', seenAt: new Date(NOW - DAY).toISOString() });
const SEATS = [seat('gone.<x>@acme.example', -1), seat('riley.owens@acme.example', 3), seat('sam.new@acme.example', 20)];

describe('Provisional Members on the dashboard and in /metrics (docs/events.md#provisional-members)', () => {
  it('lists each one with the end of the review, how soon, and an ended one as awaiting the service', async () => {
    app = buildControlApp(controlDeps({ provisional: { list: async () => SEATS }, provisionalSoonDays: 7, serviceNow: () => NOW }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/provisional');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/provisional" aria-current="page">Provisional Members</a>');
    expect(page.body).toContain('<th scope="row" data-label="Person">gone.&lt;x&gt;@acme.example</th>');
    const text = textOf(page.body);
    expect(text).toContain('3 Provisional Members; 1 review ends within 7 days.');
    expect(text).toMatch(/riley\.owens@acme\.example 5420192837465012 .* in 3 d .* soon/);
    expect(text).toMatch(/gone\.&lt;x&gt;@acme\.example .* ended .* its event is awaited/);
    const live = await getPage(app, jar, '/provisional/live', { 'hx-request': 'true' });
    expect(live.body.startsWith('<div id="provisional-live" hx-get="/provisional/live"')).toBe(true);
  });

  it('is absent without the service\'s events', async () => {
    app = buildControlApp(controlDeps());
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/batches');
    expect(page.body).not.toContain('href="/provisional"');
  });

  it('gauges the Provisional Members by state and the time to the soonest end', async () => {
    const metrics = createSeatflowMetrics();
    metrics.watch({ provisional: { list: async () => SEATS, soonMs: 7 * DAY, now: () => NOW } });
    app = buildControlApp(controlDeps({ metrics }));
    const text = (await app.inject({ method: 'GET', url: '/metrics', headers: auth })).body;
    expect(text).toContain('seatflow_provisional_members{state="tracked"} 3');
    expect(text).toContain('seatflow_provisional_members{state="expiring_soon"} 1');
    expect(text).toContain('seatflow_provisional_members{state="past_due"} 1');
    expect(text).toContain(`seatflow_provisional_next_expiry_seconds ${-DAY / 1000}`);
  });
});
