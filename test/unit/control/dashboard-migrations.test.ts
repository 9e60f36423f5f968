import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import type { ControlMigrationDeps } from '../../../src/control/migration-deps.js';
import { planMigration, type MigrationQueues } from '../../../src/migrate/plan-migration.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/index.js';
import type { EngineContext } from '../../../src/workflow/workflow-context.js';
import type { WorkflowStatus } from '../../../src/workflow/person-status.js';
import { controlDeps, createFakeBatches } from './control-test-deps.js';
import { csrfOf, getPage, postForm, signIn, textOf } from './dashboard-sign-in.js';

let sim: RunningReferenceServer;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  sim = await startReferenceServer({ rateLimit: 'off', users: 20 });
});
afterAll(async () => sim.close());
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const STATUS: WorkflowStatus = {
  workflow: { id: 'd0123456789ab', state: 'open', source: 'migrate domain acme.example → acme.io', sha256: 'f', createdAt: '', target: 'sim:test', sim: true, total: 2, lifecycle: 'domain-migration' },
  lifecycle: 'domain-migration',
  phases: { migrated: 1, unconfirmed: 1 },
  persons: [
    { row: 1, email: 'dana.whitfield@acme.example', phase: 'migrated', notes: [], detail: { newEmail: 'dana.whitfield@acme.io' } },
    { row: 2, email: 'jordan.lee@acme.example', phase: 'unconfirmed', reason: 'its owner did not confirm jordan.lee@acme.io', notes: [], detail: { newEmail: 'jordan.lee@acme.io', errorCode: '1158' } },
  ],
  workers: 0,
  overdue: 0,
};

function appWithMigrations() {
  const api = createSmartsheetClient({ baseUrl: sim.url, accessToken: sim.tokens.admin });
  const batches = createFakeBatches();
  const deps = controlDeps({ batches });
  const migrations: ControlMigrationDeps = {
    plan: (input) => planMigration(input, { api, guardrails: deps.guardrails, nowMs: Date.now() }),
    queues: { engine: {} as EngineContext, system: batches.system, target: 'sim:test' } satisfies MigrationQueues,
    status: async (id) => (id === STATUS.workflow.id ? STATUS : undefined),
  };
  app = buildControlApp({ ...deps, migrations });
  return { app, batches };
}

describe('dashboard: migrations', () => {
  it('offers the three migrations, plans a domain change from live state and shows who gets what, changing nothing', async () => {
    const { app: built } = appWithMigrations();
    const jar = await signIn(built);
    const forms = await getPage(built, jar, '/migrations');
    expect(forms.statusCode).toBe(200);
    expect(forms.body).toContain('<a href="/migrations" aria-current="page">Migrations</a>');
    expect(forms.body.match(/action="\/migrations\/plan"/g)).toHaveLength(3);
    const before = sim.context.mutations.size();
    const planned = await postForm(built, jar, '/migrations/plan', { _csrf: csrfOf(forms.body), migration: 'domain', from: 'acme.example', to: 'acme.io', users: 'dana.whitfield@acme.example\njordan.lee@acme.example', confirmWithinDays: '7' });
    expect(planned.statusCode).toBe(200);
    const text = textOf(planned.body);
    expect(text).toContain('Domain migration acme.example → acme.io (users of the dashboard form): 2 users');
    expect(text).toMatch(/make-alternate-email-primary dana\.whitfield@acme\.example \(dana\.whitfield@acme\.io\) change after its owner confirms/);
    expect(planned.body).toContain('Queue the migration');
    // Two users, an add and a make-primary each: four calls, as `seatflow migrate domain` says under its plan.
    expect(text).toContain('Calls to apply: about 4 (about 1 s at 300 calls per 60 s, the configured rate)');
    expect(sim.context.mutations.size()).toBe(before);
  });

  it('queues a confirmed plan (here a webhook re-point) and says what a bad form lacks', async () => {
    const { app: built, batches } = appWithMigrations();
    const jar = await signIn(built);
    const forms = await getPage(built, jar, '/migrations');
    const bad = await postForm(built, jar, '/migrations/plan', { _csrf: csrfOf(forms.body), migration: 'domain', from: 'https://acme.example', to: 'acme.io' });
    expect(bad.statusCode).toBe(400);
    expect(textOf(bad.body)).toMatch(/request\.from: is not a mail domain/);
    const planned = await postForm(built, jar, '/migrations/plan', { _csrf: csrfOf(bad.body), migration: 'webhooks', mode: 'repoint', repointFrom: 'https://hooks.acme.example', repointTo: 'https://hooks.acme.io' });
    expect(textOf(planned.body)).toMatch(/update-webhook webhook \d+ change https:\/\/hooks\.acme\.example\/it-assets → https:\/\/hooks\.acme\.io\/it-assets/);
    const action = /action="(\/migrations\/[0-9a-f]+\/queue)"/.exec(planned.body)?.[1] ?? '';
    const unconfirmed = await postForm(built, jar, action, { _csrf: csrfOf(planned.body) });
    expect(unconfirmed.statusCode).toBe(400);
    expect(batches.calls).not.toContain('submit');
    const queued = await postForm(built, jar, action, { _csrf: csrfOf(planned.body), confirm: 'true', reason: 'CHG-9: hooks move to acme.io' });
    expect(queued.statusCode).toBe(303);
    expect(queued.headers.location).toBe('/batches/b0123456789ab');
    expect(batches.calls).toContain('submit');
  });

  it('shows where a domain migration\'s users stand, and 404 for an id that names none', async () => {
    const { app: built } = appWithMigrations();
    const jar = await signIn(built);
    const page = await getPage(built, jar, '/migrations/d0123456789ab');
    expect(page.statusCode).toBe(200);
    expect(textOf(page.body)).toMatch(/jordan\.lee@acme\.example jordan\.lee@acme\.io unconfirmed its owner did not confirm jordan\.lee@acme\.io 1158/);
    expect((await getPage(built, jar, '/migrations/d000000000000')).statusCode).toBe(404);
    expect((await getPage(built, jar, '/migrations/nonsense')).statusCode).toBe(404);
  });
});
