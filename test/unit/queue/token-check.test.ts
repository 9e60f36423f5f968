import { describe, expect, it } from 'vitest';
import { AuthorizationError, ServiceUnavailableError } from '../../../src/client/api-error.js';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import { createSilentLogger } from '../../../src/core/logger.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { createTokenCheck } from '../../../src/queue/token-check.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const testRedis = useTestRedisClient();

/** An api whose getCurrent answers `answer` after a short wait, counting calls. */
function fakeApi(answer: () => Promise<{ admin?: boolean }>) {
  let calls = 0;
  const api = {
    users: {
      getCurrent: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return answer();
      },
    },
  } as unknown as SmartsheetApi;
  return { api, calls: () => calls };
}

describe('createTokenCheck', () => {
  const logger = createSilentLogger();

  it('re-reads the token once for many rows and several workers, and shares the verdict', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const fake = fakeApi(async () => ({ admin: true }));
    const workers = [1, 2, 3].map(() => createTokenCheck({ redis: testRedis.client, keys, api: fake.api, logger, pollMs: 10 }));
    const verdicts = await Promise.all(Array.from({ length: 30 }, (_, i) => workers[i % 3]!.stillSystemAdmin('b1')));
    expect(verdicts.every((v) => v === true)).toBe(true);
    expect(fake.calls()).toBe(1);
    expect(await testRedis.client.pttl(keys.tokenVerdict('b1'))).toBeGreaterThan(0);
  });

  it('says false when the token is no admin, or refused outright', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    expect(await createTokenCheck({ redis: testRedis.client, keys, api: fakeApi(async () => ({ admin: false })).api, logger }).stillSystemAdmin('b2')).toBe(false);
    const refused = fakeApi(async () => {
      throw new AuthorizationError({ operation: 'users.getCurrent', message: 'invalid', status: 401, errorCode: 1002 });
    });
    expect(await createTokenCheck({ redis: testRedis.client, keys, api: refused.api, logger }).stillSystemAdmin('b3')).toBe(false);
  });

  it('leaves the verdict open (undefined, not cached) when the re-read itself fails', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const failing = fakeApi(async () => {
      throw new ServiceUnavailableError({ operation: 'users.getCurrent', message: 'down', status: 503 });
    });
    const check = createTokenCheck({ redis: testRedis.client, keys, api: failing.api, logger });
    expect(await check.stillSystemAdmin('b4')).toBeUndefined();
    expect(await testRedis.client.get(keys.tokenVerdict('b4'))).toBeNull();
    expect(await testRedis.client.get(keys.tokenVerdictLock('b4'))).toBeNull();
  });

  it('reads again once the verdict has expired', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    let admin = true;
    const fake = fakeApi(async () => ({ admin }));
    const check = createTokenCheck({ redis: testRedis.client, keys, api: fake.api, logger, verdictTtlMs: 100 });
    expect(await check.stillSystemAdmin('b5')).toBe(true);
    admin = false;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await check.stillSystemAdmin('b5')).toBe(false);
    expect(fake.calls()).toBe(2);
  });
});
