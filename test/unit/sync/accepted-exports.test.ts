import { describe, expect, it } from 'vitest';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import type { RedisClient } from '../../../src/queue/redis/lua-script.js';
import { createAcceptedExports } from '../../../src/sync/accepted-exports.js';
import type { KeptEmployee } from '../../../src/sync/employee.js';
import { collect } from '../../helpers/collect.js';
import { resendingScript } from '../../helpers/resending-script.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const META = { sha256: 'abc', exportedAt: 1, exportedAtFrom: 'column', acceptedAt: '2026-11-24T02:00:00.000Z', employees: 5000, file: 'hr.csv', runId: 'sync@abc' } as const;

describe('createAcceptedExports', () => {
  const redis = useTestRedisClient();

  it('accepts an export a chunk at a time, then reads it back by ids and walks it once, each employee once', async () => {
    const accepted = createAcceptedExports(redis.client, createQueueKeys(redis.server.prefix()), 'https://api.example', 'policy');
    function* employees(): Generator<[string, KeptEmployee]> {
      for (let i = 0; i < 5000; i += 1) yield [`E${i}`, { e: `user.${i}@acme.example`, s: 'a', ...(i % 2 === 0 ? { d: 'Sales' } : {}) }];
    }
    await accepted.accept(META, employees());
    expect(await accepted.meta()).toEqual(META);
    const some = await accepted.employeesById(['E0', 'E4999', 'E5000', 'E1']);
    expect([...some]).toEqual([['E0', { e: 'user.0@acme.example', s: 'a', d: 'Sales' }], ['E4999', { e: 'user.4999@acme.example', s: 'a' }], ['E1', { e: 'user.1@acme.example', s: 'a' }]]);
    const walked = await collect(accepted.employees());
    expect(walked).toHaveLength(5000);
    expect(new Map(walked)).toEqual(new Map(employees()));
  });

  it('accepts an export whose final write ioredis sent again after losing its answer', async () => {
    const keys = createQueueKeys(redis.server.prefix());
    await createAcceptedExports(redis.client, keys, 'https://api.example', 'policy').accept(META, [['E1', { e: 'old@acme.example' }]]);
    // The final write is sent twice, whichever script it goes as (WriteTogether before it had its own).
    const client = resendingScript(resendingScript(redis.client, 'seatflowAcceptedExportTake'), 'seatflowWriteTogether');
    const accepted = createAcceptedExports(client, keys, 'https://api.example', 'policy');
    const next = { ...META, sha256: 'def', employees: 2, runId: 'sync@def' };
    await accepted.accept(next, [['E2', { e: 'two@acme.example' }], ['E3', { e: 'three@acme.example' }]]);
    expect(await accepted.meta()).toEqual(next);
    expect(new Map(await collect(accepted.employees()))).toEqual(new Map([['E2', { e: 'two@acme.example' }], ['E3', { e: 'three@acme.example' }]]));
    // An export of no employees, sent twice, leaves none.
    await accepted.accept({ ...next, employees: 0 }, []);
    expect(await collect(accepted.employees())).toEqual([]);
  });

  it('gives a field HSCAN answers twice (the hash resized during the walk) once', async () => {
    const kept = (email: string) => JSON.stringify({ e: email });
    const pages: Record<string, [string, string[]]> = { '0': ['7', ['E1', kept('a@acme.example'), 'E2', kept('b@acme.example')]], '7': ['0', ['E2', kept('b@acme.example'), 'E3', kept('c@acme.example')]] };
    const client = { hscan: (_key: string, cursor: string) => Promise.resolve(pages[cursor]) } as unknown as RedisClient;
    const accepted = createAcceptedExports(client, createQueueKeys('sf-test'), 'https://api.example', 'policy');
    expect((await collect(accepted.employees())).map(([id]) => id)).toEqual(['E1', 'E2', 'E3']);
  });
});
