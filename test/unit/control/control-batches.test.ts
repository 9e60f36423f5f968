import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { parseRecord } from '../../../src/core/unreadable-record.js';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { NoReplicaError } from '../../../src/queue/redis/replicated-write.js';
import type { ControlBatchDeps, ControlDeps } from '../../../src/control/control-deps.js';
import { startContractServer, type ContractServer } from '../../helpers/contract-server.js';
import { freePort } from '../../helpers/redis-server.js';
import { auth, batchRecord, controlDeps, createFakeBatches } from './control-test-deps.js';

let server: ContractServer;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  server = await startContractServer();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await server.close();
});

const build = (overrides: Partial<ControlDeps> = {}): FastifyInstance => {
  app = buildControlApp(controlDeps({ api: server.admin, ...overrides }));
  return app;
};
const manifest = 'email,action\nmarcus.chen@acme.example,deactivate\nelena.garcia@acme.example,deactivate\n';
const submit = (target: FastifyInstance, query = '') =>
  target.inject({ method: 'POST', url: `/v1/batches${query}`, headers: { ...auth, 'content-type': 'text/csv' }, payload: manifest });

describe('POST /v1/batches', () => {
  it('refuses with 409 a batch over the destructive guardrails without ?confirm=true, and queues nothing', async () => {
    const batches = createFakeBatches();
    const target = build({ batches: { ...batches, api: server.admin }, guardrails: { destructiveMaxCount: 0, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 100 } });
    const response = await submit(target);
    expect(response.statusCode).toBe(409);
    const { error } = response.json();
    expect(error).toMatchObject({ code: 'CONFIRMATION_REQUIRED', message: expect.stringContaining('guardrails.destructiveMaxCount (0)'), hint: expect.stringContaining('confirm=true') });
    expect(error.guardrails).toMatchObject({ destructiveCount: 2, needsConfirmation: true });
    expect(batches.calls).not.toContain('submit');
  });

  it('queues it with ?confirm=true and answers 202 with the batch id, counts and its location', async () => {
    const batches = createFakeBatches();
    const target = build({ batches: { ...batches, api: server.admin }, guardrails: { destructiveMaxCount: 0, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 100 } });
    const response = await submit(target, '?confirm=true');
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body).toMatchObject({ batchId: 'b0123456789ab', created: true, existing: false, jobsAdded: 2 });
    expect(body.batch.counts).toEqual({ succeeded: 1, unchanged: 0, skipped: 1, failed: 0, unknown: 0, cancelled: 0 });
    expect(body.batch.progress).toEqual({ done: 2, total: 4, ratio: 0.5 });
    expect(response.headers.location).toBe('/v1/batches/b0123456789ab');
    expect(batches.calls).toContain('submit');
  });

  it('refuses with 503 REDIS_NO_REPLICA a batch no Redis replica took, naming it and showing its plan, since it may still run', async () => {
    const batches = createFakeBatches();
    const unreplicated = { ...batches, system: { ...batches.system, submit: async () => { throw new NoReplicaError('REDIS_NO_REPLICA', 'no Redis replica took the batch submission within 10 s, so it is not acknowledged: a failover now could lose it', { hint: 'submitting it again is safe' }); } } } as ControlBatchDeps;
    const target = build({ batches: { ...unreplicated, api: server.admin } });
    const response = await submit(target, '?confirm=true');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    const { error } = response.json();
    expect(error).toMatchObject({ code: 'REDIS_NO_REPLICA', message: expect.stringMatching(/^no Redis replica took the batch submission/), hint: 'submitting it again is safe', batchId: expect.stringMatching(/^b[0-9a-f]{12}$/) });
    expect(error.plan.rows.map((row: { target: { email?: string }; verdict: string }) => [row.target.email, row.verdict])).toEqual([
      ['marcus.chen@acme.example', 'change'],
      ['elena.garcia@acme.example', 'change'],
    ]);
  });
});

describe('batch endpoints', () => {
  it('answers 404 with a hint for an unknown or malformed batch id', async () => {
    const target = build();
    for (const url of ['/v1/batches/b000000000000', '/v1/batches/nonsense', '/v1/batches/b000000000000/outcomes', '/v1/batches/b000000000000/retry', '/v1/batches/b000000000000/cancel']) {
      const response = await target.inject({ method: url.endsWith('retry') || url.endsWith('cancel') ? 'POST' : 'GET', url, headers: auth });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error, url).toMatchObject({ code: 'BATCH_NOT_FOUND', hint: 'List batches with GET /v1/batches.' });
    }
  });

  it('answers 409 RECORD_UNREADABLE naming a batch record a failover left without its creation, not a bare 500', async () => {
    const batches = createFakeBatches();
    const damaged = 'b00000000da4a';
    batches.system.store.get = async (id: string) => {
      parseRecord(z.object({ id: z.string(), source: z.string() }), { state: 'queued' }, 'batch', id);
      return undefined;
    };
    const response = await build({ batches }).inject({ method: 'GET', url: `/v1/batches/${damaged}`, headers: auth });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'RECORD_UNREADABLE', message: expect.stringMatching(/batch b00000000da4a is missing id, source/), hint: expect.any(String) });
  });

  it('shows a batch with its counts and progress, and lists batches', async () => {
    const target = build({ batches: createFakeBatches([batchRecord()]) });
    const one = await target.inject({ method: 'GET', url: '/v1/batches/b0123456789ab', headers: auth });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: 'b0123456789ab', state: 'queued', progress: { done: 2, total: 4 }, links: { outcomes: '/v1/batches/b0123456789ab/outcomes' } });
    const list = await target.inject({ method: 'GET', url: '/v1/batches?limit=10', headers: auth });
    expect(list.json().batches.map((b: { id: string }) => b.id)).toEqual(['b0123456789ab']);
    expect((await target.inject({ method: 'GET', url: '/v1/batches?limit=0', headers: auth })).statusCode).toBe(400);
  });

  it('retries and cancels through the same batch control as the CLI', async () => {
    const batches = createFakeBatches([batchRecord()]);
    const target = build({ batches });
    const retry = await target.inject({ method: 'POST', url: '/v1/batches/b0123456789ab/retry', headers: auth });
    expect(retry.json()).toMatchObject({ batchId: 'b0123456789ab', requeued: 1, resumed: 0 });
    const cancel = await target.inject({ method: 'POST', url: '/v1/batches/b0123456789ab/cancel', headers: { ...auth, 'content-type': 'application/json' } });
    expect(cancel.json()).toMatchObject({ batchId: 'b0123456789ab', cancelled: 1, running: 0 });
    expect(batches.calls.filter((call) => !call.startsWith('get '))).toEqual(['retry b0123456789ab', 'cancel b0123456789ab by control-token (control API)']);
  });

  it('answers 400 for an unknown report format', async () => {
    const target = build({ batches: createFakeBatches([batchRecord()]) });
    const response = await target.inject({ method: 'GET', url: '/v1/batches/b0123456789ab/outcomes?format=xlsx', headers: auth });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.problems).toEqual([expect.stringMatching(/^query\.format: /)]);
  });
});

describe('control API when Redis is down', () => {
  it('answers 503 with what to do, at once, on a connection that cannot reach Redis', async () => {
    const port = await freePort();
    const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 1000 });
    redis.on('error', () => undefined);
    await redis.connect().catch(() => undefined);
    expect(redis.status).toMatch(/^(reconnecting|close)$/);
    try {
      const batches: ControlBatchDeps = { ...createFakeBatches(), redis };
      const target = build({ batches });
      const response = await target.inject({ method: 'GET', url: '/v1/batches', headers: auth });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatchObject({ code: 'REDIS_UNAVAILABLE', message: expect.stringMatching(/^Redis is not reachable/), hint: expect.stringContaining('/readyz') });
      const ready = await target.inject({ method: 'GET', url: '/readyz', headers: auth });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.redis).toMatchObject({ ok: false, message: expect.stringContaining('Redis connection is') });
    } finally {
      redis.disconnect();
    }
  });

  it('answers 503 when Redis stops answering in time', async () => {
    const batches = createFakeBatches([batchRecord()]);
    const hanging = { ...batches, system: { ...batches.system, store: { ...batches.system.store, get: () => new Promise<never>(() => undefined) } } } as ControlBatchDeps;
    const target = build({ batches: hanging, redisTimeoutMs: 50 });
    const response = await target.inject({ method: 'GET', url: '/v1/batches/b0123456789ab', headers: auth });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.message).toBe('Redis is not reachable: no answer within 50 ms');
  });

  it('answers 500 without internals for an unexpected error while Redis is up', async () => {
    const batches = createFakeBatches();
    const broken = { ...batches, system: { ...batches.system, store: { ...batches.system.store, list: async () => { throw new Error('secret internal detail'); } } } } as ControlBatchDeps;
    const target = build({ batches: broken });
    const response = await target.inject({ method: 'GET', url: '/v1/batches', headers: auth });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: 'internal error: the server log has the details' } });
  });
});
