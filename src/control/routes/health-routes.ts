import type { FastifyInstance } from 'fastify';
import type { ControlDeps } from '../control-deps.js';
import { createBearerTokenCheck } from '../auth/bearer-token-check.js';
import { createTargetCheck } from '../target-check.js';
import { withTimeout } from '../with-redis.js';

/**
 * Liveness and readiness, without auth so that orchestrators can probe them. Without the bearer token /readyz says
 * only ready or not and which check failed; why (which can name the account the access token acts for) needs the token.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const tokenCheck = createTargetCheck(deps.api, { cacheMs: deps.readyCacheMs ?? 30_000, timeoutMs: 5000 });
  const bearerMatches = createBearerTokenCheck(deps.token);
  const publicProbe = { config: { auth: 'public' as const, rateLimit: false as const } };
  app.get('/healthz', publicProbe, async () => ({ status: 'ok' }));

  app.get('/readyz', publicProbe, async (request, reply) => {
    const [redis, target] = await Promise.all([redisCheck(deps), deps.target.configured ? tokenCheck() : Promise.resolve(targetCheck(deps))]);
    const ready = redis.ok && target.ok;
    const checks = bearerMatches(request.headers.authorization) ? { redis, target } : { redis: { ok: redis.ok }, target: { ok: target.ok } };
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}

async function redisCheck(deps: ControlDeps): Promise<{ ok: boolean; message?: string }> {
  const { redis } = deps.batches;
  if (redis.status !== 'ready') return { ok: false, message: `Redis connection is ${redis.status}` };
  const timeoutMs = Math.min(deps.redisTimeoutMs ?? 5000, 2000);
  try {
    await withTimeout(redis.ping(), timeoutMs, () => new Error(`no PONG within ${timeoutMs} ms`));
    return { ok: true };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function targetCheck(deps: ControlDeps): { ok: boolean; message?: string } {
  if (deps.target.configured) return { ok: true };
  return { ok: false, message: 'no access token: set SMARTSHEET_ACCESS_TOKEN (or start with --sim)' };
}
