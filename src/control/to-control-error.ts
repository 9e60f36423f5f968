import type { FastifyError } from 'fastify';
import { ApiError } from '../client/api-error.js';
import { SeatflowError, UsageError } from '../core/seatflow-error.js';
import { ManifestRefusedError } from '../plan/manifest-refused-error.js';
import { GovernanceRefusal } from '../governance/governance-refusal.js';
import { RedisUnavailableError } from '../queue/redis/open-redis.js';
import { NoReplicaError } from '../queue/redis/replicated-write.js';
import { UnreadableRecordError } from '../core/unreadable-record.js';
import { CONTROL_ERROR_CODES as CODES, ControlError, redisUnavailable } from './control-error.js';

/**
 * Maps whatever a handler threw onto the API's error answer. `redisDown` tells an unexpected error caused by a lost
 * Redis connection (503, what to do) from a bug (500).
 */
export function toControlError(error: unknown, redisDown: boolean): ControlError {
  if (error instanceof ControlError) return error;
  if (error instanceof ManifestRefusedError) {
    return new ControlError(422, CODES.manifestRefused, error.message, {
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      details: { problems: error.problems },
    });
  }
  if (error instanceof NoReplicaError) return new ControlError(503, CODES.redisNoReplica, error.message, { retryAfterSeconds: 5, ...(error.hint === undefined ? {} : { hint: error.hint }) });
  if (error instanceof RedisUnavailableError) return redisUnavailable(error.message);
  // Not a bug of this server: the record in Redis is damaged, and the answer says which and what follows.
  if (error instanceof UnreadableRecordError) return new ControlError(409, CODES.recordUnreadable, error.message, error.hint === undefined ? {} : { hint: error.hint });
  if (error instanceof ApiError) return fromApiError(error);
  if (error instanceof GovernanceRefusal) {
    const status = error.kind === 'forbidden' ? 403 : error.kind === 'not-found' ? 404 : 409;
    const code = error.kind === 'forbidden' ? CODES.forbidden : error.kind === 'not-found' ? CODES.approvalNotFound : CODES.conflict;
    return new ControlError(status, code, error.message, error.hint === undefined ? {} : { hint: error.hint });
  }
  if (error instanceof UsageError) return new ControlError(400, CODES.badRequest, error.message, error.hint === undefined ? {} : { hint: error.hint });
  const fastify = fromFastifyError(error as Partial<FastifyError>);
  if (fastify !== undefined) return fastify;
  if (redisDown) return redisUnavailable(error instanceof Error ? error.message : String(error));
  const hint = error instanceof SeatflowError ? error.hint : undefined;
  return new ControlError(500, CODES.internal, 'internal error: the server log has the details', hint === undefined ? {} : { hint });
}

function fromApiError(error: ApiError): ControlError {
  const details = { category: error.category, status: error.status, errorCode: error.errorCode, refId: error.refId };
  const message = `the target service refused the pre-flight (${error.operation}): ${error.message}`;
  if (error.category === 'Authorization') {
    return new ControlError(502, CODES.targetError, message, { hint: 'Check SMARTSHEET_ACCESS_TOKEN: it must be a valid System Admin token.', details });
  }
  if (error.category === 'ServiceUnavailable') {
    return new ControlError(503, CODES.targetError, message, {
      hint: 'The service is busy or unavailable; send the request again later. Nothing was queued.',
      retryAfterSeconds: error.retryAfterMs === undefined ? 30 : Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
      details,
    });
  }
  return new ControlError(502, CODES.targetError, message, { details });
}

function fromFastifyError(error: Partial<FastifyError>): ControlError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ControlError(415, CODES.unsupportedMediaType, 'the Content-Type of the request is not a manifest format', {
        hint: 'Send the manifest as the body with Content-Type text/csv, application/json or application/x-ndjson.',
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ControlError(413, CODES.bodyTooLarge, 'the manifest is larger than this server accepts', {
        hint: 'Split the manifest, or run it with the seatflow CLI (`seatflow submit FILE`).',
      });
    default:
      break;
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return new ControlError(400, CODES.badRequest, `bad request: ${error.message ?? 'unreadable request'}`);
  return undefined;
}
