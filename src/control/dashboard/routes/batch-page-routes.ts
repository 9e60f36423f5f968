import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { reportLines } from '../../../queue/report-writer.js';
import { OUTCOMES, type RowOutcome } from '../../../queue/row-outcome.js';
import { retryBatch } from '../../retry-batch.js';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { batchesPage, batchesTable } from '../pages/batches-page.js';
import { batchLive, batchPage, confirmPage, type RowsView } from '../pages/batch-page.js';

const ROWS_PER_PAGE = 200;
const rowsQuerySchema = z.object({
  outcome: z.enum(OUTCOMES).optional().catch(undefined),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0).catch(0),
});

/** The batches list, one batch with its rows and live part, its reports, and retry/cancel behind a confirmation. */
export function registerBatchPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render, fragment, batchOf, budgetView } = context;
  const { system } = deps.batches;

  app.get('/batches', session, async (_request, reply) => render(reply, batchesPage(await withRedis(deps, () => system.store.list(50))), { title: 'Batches', section: 'batches' }));
  app.get('/batches/live', session, async (_request, reply) => fragment(reply, batchesTable(await withRedis(deps, () => system.store.list(50)))));

  /** The rows of one page of the batch view: those of the filter, from the offset, in row order. */
  const rowsOf = async (batchId: string, query: unknown): Promise<RowsView> => {
    const { outcome: filter, offset } = rowsQuerySchema.parse(query ?? {});
    const rows: RowOutcome[] = [];
    let seen = 0;
    // Outcomes are read in slices in row order; a page stops reading once it is full.
    for await (const outcome of system.store.outcomes(batchId)) {
      if (filter !== undefined && outcome.outcome !== filter) continue;
      seen += 1;
      if (seen <= offset) continue;
      if (rows.length === ROWS_PER_PAGE) return { filter, rows, more: true, offset };
      rows.push(outcome);
    }
    return { filter, rows, more: false, offset };
  };

  app.get('/batches/:id', session, async (request, reply) => {
    const batch = await batchOf(request);
    const body = batchPage(batch, await budgetView(), await rowsOf(batch.id, request.query));
    return render(reply, body, { title: batch.source, section: 'batches' });
  });
  app.get('/batches/:id/live', session, async (request, reply) => {
    const batch = await batchOf(request);
    return fragment(reply, batchLive(batch, await budgetView(), await rowsOf(batch.id, request.query)));
  });

  for (const format of ['csv', 'jsonl'] as const) {
    app.get(`/batches/:id/report.${format}`, session, async (request, reply) => {
      const batch = await batchOf(request);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${batch.id}${batch.sim ? '-simulation' : ''}.${format}"`)
        .send(Readable.from(reportLines(system.store.outcomes(batch.id), format)));
    });
  }

  for (const what of ['retry', 'cancel'] as const) {
    app.get(`/batches/:id/${what}`, session, async (request, reply) => {
      const batch = await batchOf(request);
      return render(reply, confirmPage(batch, what, reply.generateCsrf()), { title: what === 'retry' ? 'Retry failed rows' : 'Cancel batch', section: 'batches' });
    });
    app.post(`/batches/:id/${what}`, csrf, async (request, reply) => {
      const batch = await batchOf(request);
      await withRedis(deps, async () => void (what === 'retry' ? await retryBatch(deps, batch.id) : await system.control.cancel(batch.id)), { timeout: false });
      return reply.redirect(`/batches/${batch.id}`, 303);
    });
  }
}
