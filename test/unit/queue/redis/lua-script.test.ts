import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../../../src/client/api-error.js';
import { luaScript, scriptOf } from '../../../../src/queue/redis/lua-script.js';
import { isRedisFailure } from '../../../../src/queue/redis/redis-failure.js';
import { startTestRedis, type TestRedis } from '../../../helpers/redis-server.js';

describe('luaScript', () => {
  let server: TestRedis;
  let redis: Redis;
  beforeAll(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  const calls = async (command: string): Promise<number> => Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(await redis.info('commandstats'))?.[1] ?? 0);

  it('sends the script’s text once per server, then only its digest (EVALSHA), and again after the server forgot it', async () => {
    const incr = luaScript('TestIncr', "return redis.call('INCRBY', KEYS[1], ARGV[1])");
    const key = `${server.prefix()}:n`;
    await redis.config('RESETSTAT');
    for (let i = 0; i < 5; i += 1) await incr.run(redis, [key], [2]);
    expect(await redis.get(key)).toBe('10');
    expect(await calls('eval')).toBeLessThanOrEqual(1);
    expect(await calls('evalsha')).toBeGreaterThanOrEqual(4);
    await redis.script('FLUSH');
    expect(await incr.run(redis, [key], [1])).toBe(11);
  });

  it('registers a script kept as a string once per text', async () => {
    const text = "return redis.call('INCR', KEYS[1])";
    expect(scriptOf(text)).toBe(scriptOf(text));
    expect(scriptOf(text)).not.toBe(scriptOf(`${text} -- another`));
    const key = `${server.prefix()}:t`;
    await redis.config('RESETSTAT');
    for (let i = 0; i < 3; i += 1) await scriptOf(text).run(redis, [key], []);
    expect(await redis.get(key)).toBe('3');
    expect(await calls('evalsha')).toBeGreaterThanOrEqual(2);
  });

  it('waits for replicas in the same round trip when asked, and says how many acknowledged', async () => {
    const set = luaScript('TestSet', "redis.call('SET', KEYS[1], ARGV[1]) return 'done'");
    const key = `${server.prefix()}:s`;
    // No replica here: WAIT gives up after its timeout and the script's result still comes back.
    const started = Date.now();
    expect(await set.runReplicated(redis, [key], ['v'], { count: 1, timeoutMs: 100 })).toEqual({ result: 'done', acknowledged: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await redis.config('RESETSTAT');
    expect(await set.runReplicated(redis, [key], ['w'], { count: 0, timeoutMs: 100 })).toEqual({ result: 'done', acknowledged: 0 });
    expect(await calls('wait')).toBe(0);
    expect(await redis.get(key)).toBe('w');
  });
});

describe('isRedisFailure', () => {
  it('tells Redis’s own failures from the service’s and the jobs’', () => {
    const reply = Object.assign(new Error('CLUSTERDOWN The cluster is down'), { name: 'ReplyError' });
    expect(isRedisFailure(reply)).toBe(true);
    expect(isRedisFailure(new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'))).toBe(true);
    expect(isRedisFailure(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisFailure(new TypeError('cannot read x of undefined'))).toBe(false);
    expect(isRedisFailure(new ServiceUnavailableError({ operation: 'users.get', status: 503, message: 'down' }))).toBe(false);
    expect(isRedisFailure('CLUSTERDOWN')).toBe(false);
  });
});
