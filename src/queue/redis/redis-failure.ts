/** Errors ioredis raises when Redis itself failed (a server's error reply, a cluster it could not reach). */
const REDIS_ERROR_NAMES = new Set(['ReplyError', 'ClusterAllFailedError', 'MaxRetriesPerRequestError', 'RedisError']);
const REDIS_ERROR_MESSAGES = /^(Connection is closed|Too many Cluster redirections|Stream isn't writeable|Failed to refresh slots cache)/;

/**
 * True when an error came from Redis rather than from the service or a job: e.g. a cluster whose failover outlasted
 * the client's retries. Such an error says nothing about the row, so it must not become the row's outcome: the job goes
 * back to BullMQ, which runs it again later (and the row's in-flight marker makes that run confirm first).
 */
export function isRedisFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return REDIS_ERROR_NAMES.has(error.name) || REDIS_ERROR_MESSAGES.test(error.message);
}
