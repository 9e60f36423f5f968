import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UsageError } from '../../core/seatflow-error.js';
import { batchView } from '../requests/batch-view.js';
import type { ControlDeps } from '../control-deps.js';
import { batchNotFound, CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { manifestBytesOf, manifestFormatOf } from '../manifest-body.js';
import { reportLines } from '../../queue/report-writer.js';
import { submitManifest } from '../requests/submit-manifest.js';
import { batchParamsSchema, listQuerySchema, outcomesQuerySchema, parseRequestPart, reasonQuerySchema, submitQuerySchema } from '../request-schemas.js';
import { retryBatch } from '../requests/retry-batch.js';
import { cancelBatch } from '../requests/cancel-batch.js';
import { withRedis } from '../with-redis.js';

/** The batch endpoints: `seatflow submit`, `status`, `report`, `retry` and `cancel` over HTTP. */
export function registerBatchRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const { system } = deps.batches;

  const requireBatch = async (params: unknown) => {
    const id = (params as { id?: string }).id ?? '';
    if (!batchParamsSchema.safeParse({ id }).success) throw batchNotFound(id);
    const batch = await withRedis(deps, () => system.store.get(id));
    if (batch === undefined) throw batchNotFound(id);
    return batch;
  };

  app.post('/v1/batches', async (request, reply) => {
    const query = parseRequestPart(submitQuerySchema, request.query, 'query');
    const bytes = manifestBytesOf(request.body);
    const format = manifestFormatOf(request.headers['content-type']);
    const result = await submitManifest(deps, { bytes, format, name: query.name, action: query.action, skipInvalid: query.skipInvalid === true, ignoreColumns: query.ignoreColumn, confirm: query.confirm === true, actor: request.actor, reason: query.reason });
    // Waiting for approval: accepted (202), nothing queued yet; Location is the change request.
    if ('awaitingApproval' in result) return reply.code(202).header('location', result.approval.links.self).send(result);
    return reply.code(result.created ? 202 : 200).header('location', result.batch.links.self).send(result);
  });

  app.get('/v1/batches', async (request) => {
    const { limit } = parseRequestPart(listQuerySchema, request.query, 'query');
    const batches = await withRedis(deps, () => system.store.list(limit));
    return { batches: batches.map(batchView) };
  });

  app.get('/v1/batches/:id', async (request) => batchView(await requireBatch(request.params)));

  app.get('/v1/batches/:id/outcomes', async (request, reply) => {
    const { format } = parseRequestPart(outcomesQuerySchema, request.query, 'query');
    const batch = await requireBatch(request.params);
    const view = batchView(batch);
    return reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${batch.id}${batch.sim ? '-simulation' : ''}.${format}"`)
      .header('x-seatflow-rows-pending', String(view.progress.total - view.progress.done))
      .send(Readable.from(reportLines(system.store.outcomes(batch.id), format)));
  });

  /** Who asks (the token's operator, or the control token), and the `?reason=` they give, for the audit trail. */
  const requestOf = (request: FastifyRequest) => ({ by: request.actor?.name ?? 'control token', via: 'control API', reason: parseRequestPart(reasonQuerySchema, request.query, 'query').reason });

  app.post('/v1/batches/:id/retry', async (request) => {
    const batch = await requireBatch(request.params);
    try {
      const result = await retryBatch(deps, batch.id, requestOf(request));
      return { batchId: batch.id, ...result, batch: batchView((await system.store.get(batch.id)) ?? batch) };
    } catch (error) {
      if (error instanceof UsageError) throw new ControlError(409, CONTROL_ERROR_CODES.conflict, error.message, error.hint === undefined ? {} : { hint: error.hint });
      throw error;
    }
  });

  app.post('/v1/batches/:id/cancel', async (request) => {
    const batch = await requireBatch(request.params);
    const result = await cancelBatch(deps, batch.id, requestOf(request));
    return { batchId: batch.id, ...result, batch: batchView((await system.store.get(batch.id)) ?? batch) };
  });
}
