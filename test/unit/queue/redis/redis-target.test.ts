import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/seatflow-error.js';
import { createQueueKeys, hashTag, rowsQueueName, tokenKey } from '../../../../src/queue/queue-keys.js';
import { describeRedisUrl, parseRedisUrl, redisTargetOf } from '../../../../src/queue/redis/redis-target.js';

describe('parseRedisUrl', () => {
  it('reads one server with credentials, database and TLS', () => {
    expect(parseRedisUrl('redis://10.0.0.5:6380/2')).toMatchObject({ kind: 'single', options: { host: '10.0.0.5', port: 6380, db: 2 } });
    const tls = parseRedisUrl('rediss://app:s%40cret@cache.example:6390');
    expect(tls).toMatchObject({ kind: 'single', options: { host: 'cache.example', port: 6390, username: 'app', password: 's@cret', tls: {} } });
    expect(tls.description).not.toContain('cret');
    expect(parseRedisUrl('redis://cache')).toMatchObject({ options: { host: 'cache', port: 6379 } });
  });

  it('reads a cluster as seed nodes, with the servers’ credentials in redisOptions', () => {
    const target = parseRedisUrl('redis+cluster://:pw@h1:7000,h2,[::1]:7002');
    expect(target.kind).toBe('cluster');
    if (target.kind !== 'cluster') return;
    expect(target.nodes).toEqual([
      { host: 'h1', port: 7000 },
      { host: 'h2', port: 6379 },
      { host: '::1', port: 7002 },
    ]);
    expect(target.options.redisOptions).toMatchObject({ password: 'pw' });
    expect(target.description).toBe('Redis Cluster h1:7000,h2:6379,::1:7002');
  });

  it('reads Sentinel: sentinels (default port 26379), then the master name and an optional database', () => {
    const target = parseRedisUrl('rediss+sentinel://s1,s2:26380/mymaster/3');
    expect(target).toMatchObject({
      kind: 'sentinel',
      options: { sentinels: [{ host: 's1', port: 26379 }, { host: 's2', port: 26380 }], name: 'mymaster', db: 3, tls: {}, enableTLSForSentinelMode: true },
    });
  });

  it.each([
    ['http://h:1', 'is not a Redis URL'],
    ['redis+sentinel://s1:26379', 'names no Sentinel master'],
    ['redis+cluster://h1:7000/0', 'no database number'],
    ['redis://h1,h2', 'several hosts'],
    ['redis://h:99999', 'is not host:port'],
    ['redis://h/x', 'is not a number'],
  ])('refuses %s with a message that says what to write', (url, message) => {
    expect(() => parseRedisUrl(url)).toThrow(UsageError);
    expect(() => parseRedisUrl(url)).toThrow(message);
  });

  it('hides the password in descriptions', () => {
    expect(describeRedisUrl('redis+cluster://u:secret@h1:1,h2:2')).toBe('redis+cluster://u:***@h1:1,h2:2');
  });
});

describe('redisTargetOf (config sections)', () => {
  it('builds a cluster or Sentinel from the config file, and nothing when Redis is not named', () => {
    expect(redisTargetOf({ cluster: { nodes: ['a:7000', 'b:7001'], password: 'p' } })).toMatchObject({ kind: 'cluster', nodes: [{ host: 'a', port: 7000 }, { host: 'b', port: 7001 }] });
    expect(redisTargetOf({ sentinel: { nodes: ['s1'], name: 'm', sentinelPassword: 'sp' } })).toMatchObject({ kind: 'sentinel', options: { name: 'm', sentinelPassword: 'sp', sentinels: [{ host: 's1', port: 26379 }] } });
    expect(redisTargetOf({ url: '' })).toBeUndefined();
  });

  it('refuses Redis named twice', () => {
    expect(() => redisTargetOf({ url: 'redis://h', cluster: { nodes: ['a:1'] } })).toThrow('named twice');
  });
});

describe('the key layout', () => {
  it('gives every key of one batch, of one token and of the queue one hash tag each', () => {
    const keys = createQueueKeys('sf-test');
    const tagOf = (key: string) => /\{([^}]*)\}/.exec(key)?.[1];
    for (const key of [keys.batch('b1'), keys.rows('b1'), keys.outcomes('b1'), keys.inflight('b1'), keys.attempts('b1'), keys.started('b1')]) expect(tagOf(key)).toBe('b1');
    const token = tokenKey('secret');
    for (const key of [keys.budget(token), keys.pause(token), keys.calls(token)]) expect(tagOf(key)).toBe(token);
    expect(tagOf(keys.batches)).toBe('index');
    expect(tagOf(`sf-test:${rowsQueueName('https://api.example/2.0')}:wait`)).toMatch(/^rows-[0-9a-f]{8}$/);
    expect(() => hashTag('a{b')).toThrow('braces');
  });
});
