import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { describeDuration } from '../../core/service-clock.js';
import { provisionalCounts, type ProvisionalSeat } from '../../events/provisional-tracker.js';
import { openBatchRuntime } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { provisionalTrackerOf, subscriptionStoreOf } from '../events-runtime.js';

interface ProvisionalFlags extends CommonFlags {
  refresh?: boolean;
  json?: boolean;
}

/**
 * `seatflow provisional`: the Provisional Members of the subscribed plan and when each one's review period ends
 * (docs/events.md#provisional-members), as the service's events keep them (a read of the plan with --refresh). At
 * the end the service drops the seat to a free one unless a System Admin upgrades it: this is the list to act on.
 */
export function defineProvisionalCommand(command: Command): void {
  addCommonOptions(command.option('--refresh', 'read the plan\'s Provisional Members from the service again first (one call per 2000 of them)').option('--json', 'print JSON')).action(
    async (flags: ProvisionalFlags) => {
      await withCliRuntime({ ...flags, sim: false }, { requireToken: flags.refresh === true }, async (runtime) => {
        const batch = await openBatchRuntime(runtime);
        const tracker = provisionalTrackerOf(runtime, batch);
        await runtime.serviceClock.refresh();
        const now = runtime.serviceClock.now();
        if (flags.refresh === true) {
          const subscription = await subscriptionStoreOf(runtime, batch).get();
          if (subscription === undefined) throw new UsageError('no subscription says which plan to read', 'Subscribe first: seatflow webhooks subscribe');
          const users = [];
          for await (const user of runtime.api.users.list({ planId: subscription.planId, seatType: 'PROVISIONAL_MEMBER' })) users.push(user);
          await tracker.replace(users, subscription.planId, now);
        }
        const seats = await tracker.list();
        const soonMs = runtime.config.events.provisionalSoonDays * 86_400_000;
        if (flags.json === true) {
          process.stdout.write(`${JSON.stringify({ serviceTime: new Date(now).toISOString(), counts: provisionalCounts(seats, now, soonMs), seats }, null, 2)}\n`);
          return;
        }
        process.stdout.write(formatProvisional(seats, now, soonMs));
      });
    },
  );
}

export function formatProvisional(seats: readonly ProvisionalSeat[], now: number, soonMs: number): string {
  if (seats.length === 0) return 'No Provisional Member is tracked (subscribe with `seatflow webhooks subscribe`, or read the plan with --refresh).\n';
  const counts = provisionalCounts(seats, now, soonMs);
  const width = Math.max(5, ...seats.map((seat) => seat.email.length));
  const lines = seats.map((seat) => {
    const left = Date.parse(seat.expiresAt) - now;
    const when = left <= 0 ? `ended ${describeDuration(-left)} ago (the service drops the seat; its event is awaited)` : `in ${describeDuration(left)}${left <= soonMs ? '  ← soon' : ''}`;
    return `${seat.email.padEnd(width)}  ${seat.expiresAt}  ${when}`;
  });
  return [
    `${'email'.padEnd(width)}  review ends                 `,
    ...lines,
    '',
    `${counts.total} Provisional Member(s); ${counts.expiringSoon} end within ${Math.round(soonMs / 86_400_000)} days, ${counts.pastDue} past their date. Upgrade the ones to keep before then (an upgrade row in a manifest).`,
  ].join('\n') + '\n';
}
