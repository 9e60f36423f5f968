import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import type { ControlDeps } from '../control-deps.js';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Bull Board over the queue of this server's target, for people who already know it: read-only (no retry, clean or
 * remove from there: those would bypass seatflow's outcomes), behind the dashboard's sign-in (see register-auth.ts).
 */
export async function registerQueueBoard(app: FastifyInstance, deps: ControlDeps): Promise<void> {
  // Deps built for tests without Redis have no queue to show.
  const queue = deps.batches.system.queue as ControlDeps['batches']['system']['queue'] | undefined;
  if (queue === undefined) return;
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(queue, { readOnlyMode: true, description: `rows of ${deps.target.label}` })],
    serverAdapter,
    // The docs link points to the internet; the way back points to the dashboard.
    options: { uiConfig: { boardTitle: 'seatflow queues', hideDocsLink: true, miscLinks: [{ text: 'Back to the seatflow dashboard', url: '/batches' }] } },
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
}
