import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../../src/core/logger.js';
import { openRedis, type RedisHandle } from '../../../../src/queue/redis/open-redis.js';
import { trackRefusedWrites } from '../../../../src/queue/redis/refused-write.js';
import { writeTogether } from '../../../../src/queue/redis/write-together.js';
import { useMasterAndReplica } from '../../../helpers/master-and-replica.js';

describe('trackRefusedWrites', () => {
  const readOnly = new Error("READONLY You can't write against a read only replica.");
  const noReplicas = new Error('NOREPLICAS Not enough good replicas to write.');

  it('sends again what a server refused unrun, and nothing else', () => {
    const refused = trackRefusedWrites({ resendReadOnly: true });
    expect(refused.reconnectOnError(readOnly)).toBe(2);
    expect(refused.reconnectOnError(noReplicas)).toBe(2);
    expect(refused.reconnectOnError(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
    expect(refused.reconnectOnError(new Error('ERR unknown command'))).toBe(false);
  });

  it('on one server named by its URL, gives a READONLY to the caller: the URL names a replica, which stays one', () => {
    const refused = trackRefusedWrites({ resendReadOnly: false });
    expect(refused.reconnectOnError(readOnly)).toBe(false);
    expect(refused.refusing()).toBeUndefined();
    expect(refused.reconnectOnError(noReplicas)).toBe(2);
  });

  it('says why writes are refused while refusals keep coming, and nothing after', () => {
    let now = 1_000_000;
    const refused = trackRefusedWrites({ resendReadOnly: true }, () => now);
    expect(refused.refusing()).toBeUndefined();
    refused.reconnectOnError(noReplicas);
    now += 2000;
    expect(refused.refusing()).toBe('too few replicas in sync: min-replicas-to-write');
    refused.reconnectOnError(readOnly);
    expect(refused.refusing()).toBe('it is a read-only replica');
    now += 3500;
    expect(refused.refusing()).toBeUndefined();
  });
});

describe('a master run with min-replicas-to-write 1', () => {
  const servers = useMasterAndReplica();
  let handle: RedisHandle | undefined;

  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await servers.client.config('SET', 'min-replicas-to-write', '0');
  });

  it('makes a write it refuses for want of a replica once the replica is back, as one script for writes that go together', async () => {
    await servers.client.config('SET', 'min-replicas-to-write', '1');
    await servers.client.config('SET', 'min-replicas-max-lag', '10');
    handle = await openRedis({ url: servers.master.url, dataDir: '.', logger: createSilentLogger() });
    const key = `refused:${process.pid}:${Date.now()}`;

    const settled: string[] = [];
    const single = handle.client.set(`${key}:single`, 'kept').then(() => settled.push('single'));
    const together = writeTogether(handle.client, [`{${key}}:a`, `{${key}}:b`], [
      ['HSET', `{${key}}:a`, 'field', 'one'],
      ['ZADD', `{${key}}:b`, 1732838400000.123, 'member'],
      ['HGET', `{${key}}:a`, 'field'],
    ]).then((replies) => {
      settled.push('together');
      return replies;
    });

    // Without a replica nothing is made, nothing fails: the writes wait, and the handle says why.
    await expect.poll(() => handle?.refusingWrites(), { timeout: 5000 }).toBe('too few replicas in sync: min-replicas-to-write');
    expect(settled).toEqual([]);
    expect(await servers.client.exists(`${key}:single`, `{${key}}:a`, `{${key}}:b`)).toBe(0);

    await servers.replicaClient.replicaof('127.0.0.1', String(servers.master.port));
    await single;
    expect((await together)[2]).toBe('one');
    expect(await servers.client.get(`${key}:single`)).toBe('kept');
    // The script's arguments go as written: a millisecond time with a fraction keeps its fraction.
    expect(await servers.client.zscore(`{${key}}:b`, 'member')).toBe('1732838400000.123');
    await expect.poll(() => servers.replicaClient.hget(`{${key}}:a`, 'field'), { timeout: 5000 }).toBe('one');
  });
});
