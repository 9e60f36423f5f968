import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { reportLines } from '../../../queue/report-writer.js';
import { OUTCOMES, type RowOutcome } from '../../../queue/row-outcome.js';
import { plural } from '../../../core/plural.js';
import { cancelBatch } from '../../requests/cancel-batch.js';
import { changeStoryOf, type ChangeStory } from '../../requests/change-story.js';
import { retryBatch } from '../../requests/retry-batch.js';
import { withRedis } from '../../with-redis.js';
import { csrfTokenOf } from '../../security/register-security.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { BatchRecord } from '../../../queue/batch-store.js';
import { createActivityReader } from '../read-batch-activity.js';
import { batchesPage, batchesTable, type BatchesView } from '../pages/batches-page.js';
import { batchLive, batchPage, confirmPage, type BatchView, type RowsView } from '../pages/batch-page.js';

const ROWS_PER_PAGE = 200;
const rowsQuerySchema = z.object({
  outcome: z.enum(OUTCOMES).optional().catch(undefined),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0).catch(0),
  announced: z.string().max(40).optional().catch(undefined),
});

/** The batches list, one batch with its rows and live part, its reports, and retry/cancel behind a confirmation. */
export function registerBatchPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render, fragment, batchOf, sampler, redirectWithNotice } = context;
  const { system } = deps.batches;

  const batchesView = (): Promise<BatchesView> =>
    withRedis(deps, async () => {
      const now = Date.now();
      const activityOf = createActivityReader(deps, now);
      const batches = await system.store.list(50);
      return { batches: await Promise.all(batches.map(async (batch) => ({ batch, activity: await activityOf(batch) }))), now };
    });
  app.get('/batches', session, async (_request, reply) => render(reply, batchesPage(await batchesView()), { title: 'Batches', section: 'batches' }));
  app.get('/batches/live', session, async (_request, reply) => fragment(reply, batchesTable(await batchesView())));

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

  // Who asked for a batch does not change once it is queued: read once per batch (the live part asks every 2 s).
  const stories = new Map<string, ChangeStory | undefined>();
  const storyOf = async (batch: BatchRecord): Promise<ChangeStory | undefined> => {
    if (stories.has(batch.id)) return stories.get(batch.id);
    const story = await changeStoryOf(deps, batch.id, batch.createdAt);
    if (stories.size >= 500) stories.delete(stories.keys().next().value as string);
    stories.set(batch.id, story);
    return story;
  };

  /** The batch page's view: the record, who asked for it, what it is doing, the budget, the pace and one page of rows. */
  const viewOf = async (batch: BatchRecord, query: unknown): Promise<BatchView> => {
    const now = Date.now();
    const [activity, budget, rows, perSecond, story] = await Promise.all([
      withRedis(deps, () => createActivityReader(deps, now)(batch)),
      sampler === undefined ? undefined : withRedis(deps, () => sampler.view()),
      withRedis(deps, () => rowsOf(batch.id, query)),
      withRedis(deps, () => system.store.finishedPerSecond(batch.id)),
      storyOf(batch),
    ]);
    return { batch, activity, budget, rows, perSecond, announced: rowsQuerySchema.parse(query ?? {}).announced, now, story };
  };
  app.get('/batches/:id', session, async (request, reply) => {
    const batch = await batchOf(request);
    return render(reply, batchPage(await viewOf(batch, request.query)), { title: batch.source, section: 'batches' });
  });
  app.get('/batches/:id/live', session, async (request, reply) => fragment(reply, batchLive(await viewOf(await batchOf(request), request.query))));

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
      return render(reply, confirmPage(batch, what, csrfTokenOf(reply)), { title: what === 'retry' ? 'Retry failed rows' : 'Cancel batch', section: 'batches' });
    });
    app.post(`/batches/:id/${what}`, csrf, async (request, reply) => {
      const batch = await batchOf(request);
      const asked = { by: request.actor!.name, via: 'dashboard' };
      if (what === 'cancel') {
        const { cancelled, running } = await cancelBatch(deps, batch.id, asked);
        const text = `Cancelled by ${asked.by}: ${plural(cancelled, 'row')} will not run${running > 0 ? `; ${plural(running, 'row')} already running will finish` : ''}.`;
        return redirectWithNotice(request, reply, `/batches/${batch.id}`, { kind: 'ok', text });
      }
      const { requeued, resumed, rerun } = await retryBatch(deps, batch.id, asked);
      const text =
        requeued + resumed + (rerun ?? 0) === 0 ? 'Nothing to retry: no failed, unknown or cancelled rows. The batch was left as it is.'
        : `Retried: ${plural(requeued, 'row')} queued again${resumed > 0 ? `, ${plural(resumed, 'waiting row')} resumed` : ''}${rerun === undefined || rerun === 0 ? '' : `, ${plural(rerun, 'leaver')} whose step failed run it again`}. This page follows them.`;
      return redirectWithNotice(request, reply, `/batches/${batch.id}`, { kind: requeued + resumed + (rerun ?? 0) === 0 ? 'note' : 'ok', text });
    });
  }
}
