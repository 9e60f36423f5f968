import type { FastifyInstance } from 'fastify';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { notAvailablePage } from '../pages/not-available-page.js';
import { upcomingLive, upcomingPage, type UpcomingView } from '../pages/upcoming-page.js';

/** The joiners, movers and leavers to come, by date (the engine's step index, every lifecycle). */
export function registerUpcomingPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, render, fragment } = context;
  const source = deps.upcoming;
  if (source === undefined) {
    app.get('/upcoming', session, async (_request, reply) =>
      render(reply, notAvailablePage('Joiners, movers and leavers', 'it was started without the workflows of seatflow sync.'), { title: 'Joiners, movers, leavers', section: 'upcoming' }, 404),
    );
    return;
  }
  const view = async (): Promise<UpcomingView> => withRedis(deps, async () => ({ changes: await source.upcoming(), now: Date.now() }));
  app.get('/upcoming', session, async (_request, reply) => render(reply, upcomingPage(await view()), { title: 'Joiners, movers, leavers', section: 'upcoming' }));
  app.get('/upcoming/live', session, async (_request, reply) => fragment(reply, upcomingLive(await view())));
}
