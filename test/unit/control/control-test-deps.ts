import { Writable } from 'node:stream';
import pino from 'pino';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import type { ControlBatchDeps, ControlDeps } from '../../../src/control/control-deps.js';
import type { BatchRecord } from '../../../src/queue/batch-store.js';
import { emptyCounts } from '../../../src/queue/row-outcome.js';

export const TOKEN = 'control-token-0123456789abcdef-0123456789';

/** A logger that keeps every line, to prove what was (and was not) logged. */
export function createCapturingLogger(): { logger: ControlDeps['logger']; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), lines };
}

export function batchRecord(overrides: Partial<BatchRecord> = {}): BatchRecord {
  return {
    id: 'b0123456789ab',
    state: 'queued',
    source: 'manifest.csv',
    sha256: 'f'.repeat(64),
    createdAt: '2025-01-01T00:00:00.000Z',
    total: 4,
    queued: 2,
    sim: true,
    target: 'sim:test',
    queueName: 'rows-test',
    counts: { ...emptyCounts(), skipped: 1, succeeded: 1 },
    rowStates: { planned: 0, scheduled: 0, queued: 2, running: 0 },
    ...overrides,
  };
}

/**
 * Batch dependencies without Redis: a store and control that answer from memory, a connection whose status the
 * test sets. Each call is recorded.
 */
export function createFakeBatches(batches: BatchRecord[] = []): ControlBatchDeps & { calls: string[]; redisState: { status: string } } {
  const calls: string[] = [];
  const redisState = { status: 'ready' };
  const byId = new Map(batches.map((batch) => [batch.id, batch]));
  const system = {
    store: {
      get: async (id: string) => {
        calls.push(`get ${id}`);
        return byId.get(id);
      },
      list: async () => [...byId.values()],
      async *outcomes() {
        /* none */
      },
      rowsStarted: async () => 0,
      finishedPerSecond: async () => [],
    },
    control: {
      cancel: async (id: string, by?: string) => {
        calls.push(`cancel ${id}${by === undefined ? '' : ` by ${by}`}`);
        return { cancelled: 1, running: 0 };
      },
      retry: async (id: string) => {
        calls.push(`retry ${id}`);
        return { requeued: 1, resumed: 0, leftToSteps: 0 };
      },
    },
    submit: async () => {
      calls.push('submit');
      return { batch: batchRecord(), created: true, jobsAdded: 2 };
    },
  } as unknown as ControlBatchDeps['system'];
  return {
    system,
    api: {} as SmartsheetApi,
    redis: {
      get status() {
        return redisState.status;
      },
      ping: async () => 'PONG',
    } as unknown as ControlBatchDeps['redis'],
    calls,
    redisState,
  };
}

export function controlDeps(overrides: Partial<ControlDeps> = {}): ControlDeps {
  return {
    logger: pino({ level: 'silent' }),
    token: TOKEN,
    target: { label: 'test target', id: 'sim:test', configured: true, sim: true },
    guardrails: { destructiveMaxCount: 25, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1000 },
    api: {} as SmartsheetApi,
    rate: { requests: 300, perSeconds: 60 },
    batches: createFakeBatches(),
    ...overrides,
  };
}

export const auth = { authorization: `Bearer ${TOKEN}` };

/** A client whose only call is the token check of /readyz; it counts the calls and answers as told. */
export function adminApi(answer: () => Promise<{ admin?: boolean; email?: string }> = async () => ({ admin: true, email: 'admin@acme.example' })): SmartsheetApi & { checks: number } {
  const api = {
    checks: 0,
    users: {
      getCurrent: async () => {
        api.checks += 1;
        return answer();
      },
    },
  };
  return api as unknown as SmartsheetApi & { checks: number };
}
