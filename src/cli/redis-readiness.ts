import type { RedisClient } from '../queue/redis/lua-script.js';

/** Ready while Redis answers a PING within two seconds: a worker without Redis takes nothing. */
export async function redisReadiness(client: RedisClient): Promise<{ ok: boolean; message?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('no PONG within 2000 ms')), 2000)));
  try {
    await Promise.race([client.ping(), late]);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: `Redis: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}
