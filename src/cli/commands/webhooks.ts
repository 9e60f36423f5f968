import type { Command } from 'commander';
import { idInputSchema } from '../../contract/index.js';
import { UsageError } from '../../core/seatflow-error.js';
import { requireRole } from '../../governance/operators/actor.js';
import { rotateSecret, subscribe, unsubscribe } from '../../events/subscribe.js';
import { openBatchRuntime, withBatchRuntime, type BatchRuntime } from '../batch-runtime.js';
import { cliActorOf } from '../cli-actor.js';
import { withCliRuntime, type CliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { callbackUrlOf, eventKeysOf, provisionalTrackerOf, subscriptionStoreOf } from '../events-runtime.js';

interface SubscribeFlags extends CommonFlags {
  url?: string;
  plan?: string;
  by?: string;
  json?: boolean;
}

interface ChangeFlags extends CommonFlags {
  by?: string;
}

/**
 * `seatflow webhooks subscribe|status|rotate|unsubscribe` (docs/events.md#subscribing): the plan webhook through which
 * the service tells `seatflow serve` of every user change, whoever made it.
 */
export function defineWebhooksCommand(webhooks: Command): void {
  addCommonOptions(
    webhooks
      .command('subscribe')
      .description('create and enable the plan webhook that sends every user change to `seatflow serve` (start serve first); safe to repeat')
      .option('--url <url>', 'where the service reaches serve\'s callback endpoint (config events.callbackUrl; https on the real service)')
      .option('--plan <id>', 'the plan to watch (default: the only plan of the account)')
      .option('--by <name>', 'who subscribes (recorded in the audit trail)')
      .option('--json', 'print JSON'),
  ).action(async (flags: SubscribeFlags) => {
    refuseSim(flags);
    await withCliRuntime(flags, { requireToken: true }, async (runtime) => {
      const batch = await openBatchRuntime(runtime);
      const actor = cliActorOf(runtime, flags.by);
      requireRole(actor, 'operator', 'subscribe to the service\'s events');
      const callbackUrl = flags.url ?? callbackUrlOf(runtime);
      if (callbackUrl === undefined) {
        throw new UsageError('say where the service reaches `seatflow serve`', 'Give --url https://seatflow.example.com/hooks/smartsheet, or set events.callbackUrl in the config file.');
      }
      const result = await subscribe({
        api: runtime.api,
        store: subscriptionStoreOf(runtime, batch),
        provisional: provisionalTrackerOf(runtime, batch),
        callbackUrl,
        ...(flags.plan === undefined ? {} : { planId: planOf(flags.plan) }),
        name: `seatflow events (${runtime.targetLabel})`.slice(0, 200),
        now: () => runtime.serviceClock.now(),
      });
      const { subscription } = result;
      await batch.governance.audit.append({ event: 'events.subscribed', actor: actor.name, subject: `webhook:${subscription.webhookId}`, data: { planId: subscription.planId, callbackUrl, created: result.created, target: batch.target } });
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify({ webhookId: subscription.webhookId, planId: subscription.planId, callbackUrl, status: result.webhook.status, created: result.created, provisionalMembers: result.provisionalMembers }, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        [
          `${result.created ? 'Subscribed' : 'Already subscribed'}: plan webhook ${subscription.webhookId} on plan ${subscription.planId} sends every user change to ${callbackUrl} (${result.webhook.status ?? 'status unknown'}).`,
          `seatflow's own changes are those of ${subscription.ownEmail} that seatflow's calls explain; every other change is recorded as made outside seatflow.`,
          `Provisional Members tracked: ${result.provisionalMembers} (seatflow provisional).`,
          'Keep `seatflow serve` running: it takes the callbacks. Rotate the shared secret with: seatflow webhooks rotate',
        ].join('\n') + '\n',
      );
    });
  });

  addCommonOptions(webhooks.command('status').description('show the subscription: the webhook as the service reports it (status, stats), callbacks taken and refused').option('--json', 'print JSON')).action(
    async (flags: CommonFlags & { json?: boolean }) => {
      await withBatchRuntime(flags, async (runtime, batch) => {
        const status = await statusOf(runtime, batch);
        if (flags.json === true) process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        else process.stdout.write(formatStatus(status));
        process.exitCode = status.subscribed && status.webhook?.enabled !== false ? 0 : 1;
      });
    },
  );

  addCommonOptions(webhooks.command('rotate').description("reset the webhook's shared secret and keep the new one; callbacks on their way with the old one are still taken for events.rotationGraceMinutes").option('--by <name>', 'who rotates (audit trail)')).action(
    async (flags: ChangeFlags) => {
      refuseSim(flags);
      await withCliRuntime(flags, { requireToken: true }, async (runtime) => {
        const batch = await openBatchRuntime(runtime);
        const actor = cliActorOf(runtime, flags.by);
        requireRole(actor, 'operator', "rotate the webhook's shared secret");
        const graceMs = runtime.config.events.rotationGraceMinutes * 60_000;
        const rotated = await rotateSecret(runtime.api, subscriptionStoreOf(runtime, batch), Date.now, graceMs);
        await batch.governance.audit.append({ event: 'events.rotated', actor: actor.name, subject: `webhook:${rotated.webhookId}`, data: { graceMinutes: runtime.config.events.rotationGraceMinutes, target: batch.target } });
        process.stdout.write(`The shared secret of webhook ${rotated.webhookId} was reset; seatflow verifies callbacks with the new one, and with the old one until ${new Date(rotated.previousUntil ?? Date.now()).toISOString()}.\n`);
      });
    },
  );

  addCommonOptions(webhooks.command('unsubscribe').description('delete the plan webhook and forget the subscription: changes made elsewhere are no longer seen').option('--by <name>', 'who unsubscribes (audit trail)')).action(
    async (flags: ChangeFlags) => {
      refuseSim(flags);
      await withCliRuntime(flags, { requireToken: true }, async (runtime) => {
        const batch = await openBatchRuntime(runtime);
        const actor = cliActorOf(runtime, flags.by);
        requireRole(actor, 'operator', "unsubscribe from the service's events");
        const removed = await unsubscribe(runtime.api, subscriptionStoreOf(runtime, batch));
        if (removed === undefined) {
          process.stdout.write('There was no subscription: nothing to do.\n');
          return;
        }
        await batch.governance.audit.append({ event: 'events.unsubscribed', actor: actor.name, subject: `webhook:${removed.webhookId}`, data: { planId: removed.planId, target: batch.target } });
        process.stdout.write(`Unsubscribed: webhook ${removed.webhookId} was deleted; changes made outside seatflow are no longer seen as they happen.\n`);
      });
    },
  );
}

/** The embedded reference server ends with the command: a webhook on it would outlive nothing. */
function refuseSim(flags: CommonFlags): void {
  if (flags.sim === true) {
    throw new UsageError('--sim runs a reference server that ends with this command: nothing would call serve', 'Start `seatflow sim`, point SMARTSHEET_API_BASE at it, and run this without --sim.');
  }
}

function planOf(text: string): number {
  const parsed = idInputSchema.safeParse(text);
  if (!parsed.success) throw new UsageError(`--plan ${text} is not a plan id`, 'A plan id is digits, e.g. --plan 5420192837465012.');
  return parsed.data;
}

interface SubscriptionStatus {
  target: string;
  subscribed: boolean;
  webhookId?: number;
  planId?: number;
  callbackUrl?: string;
  ownEmail?: string;
  rotatedAt?: string;
  /** As the service reports it; absent without an access token or when it could not be read. */
  webhook?: { enabled?: boolean | undefined; status?: string | undefined; disabledDetails?: string | undefined; stats?: unknown };
  webhookError?: string;
  counters: Record<string, number>;
  provisionalMembers: number;
}

async function statusOf(runtime: CliRuntime, batch: BatchRuntime): Promise<SubscriptionStatus> {
  const subscription = await subscriptionStoreOf(runtime, batch).get();
  const raw = await batch.redis.client.hgetall(eventKeysOf(runtime, batch).counters);
  const counters = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, Number(value)]));
  const provisionalMembers = (await provisionalTrackerOf(runtime, batch).list()).length;
  if (subscription === undefined) return { target: runtime.targetLabel, subscribed: false, counters, provisionalMembers };
  const base = { target: runtime.targetLabel, subscribed: true, webhookId: subscription.webhookId, planId: subscription.planId, callbackUrl: subscription.callbackUrl, ownEmail: subscription.ownEmail, ...(subscription.rotatedAt === undefined ? {} : { rotatedAt: subscription.rotatedAt }), counters, provisionalMembers };
  if (runtime.config.api.accessToken === undefined) return base;
  try {
    const webhook = await runtime.api.webhooks.get(subscription.webhookId);
    return { ...base, webhook: { enabled: webhook.enabled, status: webhook.status, disabledDetails: webhook.disabledDetails, stats: webhook.stats } };
  } catch (error) {
    return { ...base, webhookError: error instanceof Error ? error.message : String(error) };
  }
}

function formatStatus(status: SubscriptionStatus): string {
  if (!status.subscribed) return `Target: ${status.target}\nNo subscription: changes made outside seatflow are seen only at the next read. Subscribe with: seatflow webhooks subscribe --url URL\n`;
  const lines = [
    `Target: ${status.target}`,
    `Webhook ${status.webhookId} on plan ${status.planId} → ${status.callbackUrl}; seatflow acts as ${status.ownEmail}${status.rotatedAt === undefined ? '' : `; secret rotated ${status.rotatedAt}`}`,
  ];
  if (status.webhook !== undefined) {
    lines.push(`The service reports it ${status.webhook.status ?? '?'}${status.webhook.disabledDetails === undefined ? '' : `: ${status.webhook.disabledDetails}`}`);
    if (status.webhook.stats !== undefined) lines.push(`Stats: ${JSON.stringify(status.webhook.stats)}`);
    if (status.webhook.enabled === false) lines.push('It sends nothing while disabled: start `seatflow serve`, then run `seatflow webhooks subscribe` again (it enables the webhook).');
  } else if (status.webhookError !== undefined) lines.push(`Could not read the webhook from the service: ${status.webhookError}`);
  const c = status.counters;
  const refused = Object.entries(c).filter(([key]) => key.startsWith('refused.')).map(([key, value]) => `${key.slice(8)} ${value}`);
  lines.push(`Callbacks taken: ${c.taken ?? 0}; refused: ${refused.length === 0 ? 'none' : refused.join(', ')}. Events: ${c['events.outside'] ?? 0} made outside seatflow, ${c['events.seatflow'] ?? 0} seatflow's own.`);
  lines.push(`Provisional Members tracked: ${status.provisionalMembers} (seatflow provisional).`);
  return `${lines.join('\n')}\n`;
}
