import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_ERROR_CODES, ControlError } from '../../control-error.js';
import { csrfTokenOf } from '../../security/register-security.js';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { notAvailablePage } from '../pages/not-available-page.js';
import { runConfirmPage, runQueuedNotice, schedulesLive, schedulesPage } from '../pages/schedules-page.js';
import { runScheduleNow } from '../../requests/run-schedule.js';

/**
 * The reconciliation schedules of the target with their next and last runs, and "run now" behind a confirmation
 * (adding and removing stay in the CLI).
 */
export function registerSchedulesPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render, fragment } = context;
  const book = deps.schedules;
  if (book === undefined) {
    app.get('/schedules', session, async (_request, reply) =>
      render(reply, notAvailablePage('Schedules', 'it was started without the schedule book of its target.'), { title: 'Schedules', section: 'schedules' }, 404),
    );
    return;
  }
  // A handful of Redis reads on the book the server keeps open (about 1 ms for 10 schedules: bench/schedule-list.ts).
  const list = () => withRedis(deps, () => book.list());
  const scheduleOf = async (request: FastifyRequest) => {
    const name = (request.params as { name?: string }).name ?? '';
    const found = (await list()).find((view) => view.name === name);
    if (found === undefined) throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `no schedule ${name}`, { hint: 'The Schedules page lists them.' });
    return found;
  };
  app.get('/schedules', session, async (_request, reply) => render(reply, schedulesPage(await list(), Date.now(), deps.guardrails), { title: 'Schedules', section: 'schedules' }));
  app.get('/schedules/live', session, async (_request, reply) => fragment(reply, schedulesLive(await list(), Date.now(), deps.guardrails)));
  // The last run's plan report, as a download: the file its run recorded (JSON) or the CSV written beside it.
  for (const format of ['csv', 'json'] as const) {
    app.get(`/schedules/:name/report.${format}`, session, async (request, reply) => {
      const view = await scheduleOf(request);
      const recorded = view.lastRun?.report;
      if (recorded === undefined || recorded === '') throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `schedule ${view.name} has no plan report yet`, { hint: 'It is written at its first run.' });
      const file = format === 'json' ? recorded : recorded.replace(/\.json$/, '.csv');
      const bytes = await readFile(file).catch(() => {
        throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `the plan report of ${view.name}'s last run is gone from the server's data folder`, { hint: 'Run the schedule again for a new one.' });
      });
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${path.basename(file).replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .send(bytes);
    });
  }
  app.get('/schedules/:name/run', session, async (request, reply) => {
    const view = await scheduleOf(request);
    return render(reply, runConfirmPage(view, csrfTokenOf(reply)), { title: `Run ${view.name} now`, section: 'schedules' });
  });
  app.post('/schedules/:name/run', csrf, async (request, reply) => {
    const view = await scheduleOf(request);
    const queued = await runScheduleNow(deps, view.name, { by: request.actor!.name, via: 'dashboard' });
    return context.redirectWithNotice(request, reply, '/schedules', runQueuedNotice(view.name, queued));
  });
}
