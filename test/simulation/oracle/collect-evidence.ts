import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSilentLogger } from '../../../src/core/logger.js';
import { createBatchStore } from '../../../src/queue/batch-store.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { openRedis } from '../../../src/queue/redis/open-redis.js';
import type { Handle } from '../actions/operator-action.js';
import type { Ledger } from '../ledger/ledger.js';
import type { OutcomeRef } from '../ledger/promise.js';
import type { ServiceUser } from '../world/service-controls.js';
import type { World } from '../world/start-world.js';
import type { AuditLine, Evidence, ReportedLeaver, ReportedOutcome, StepToCome } from './evidence.js';
import { identitiesOf, type Identities } from './identities.js';
import { isOutside } from './mutation-subjects.js';
import type { Mutation } from '../../../src/server/sim/mutation-log.js';

const SAYS_CHANGED = new Set(['succeeded', 'unknown']);

/**
 * Gathers the evidence once the run is over: the service's mutation log and users (its own interface), and what
 * seatflow says — outcomes of batches and offboardings' step batches through the control API (what the dashboard
 * shows), of a sync's joiners and movers step batches from the batch store (what `seatflow report` writes; the API
 * does not serve them), offboarding statuses and the audit trail through the API.
 */
export async function collectEvidence(run: { world: World; ledger: Ledger; handles: ReadonlyMap<number, Handle>; initialUsers: readonly ServiceUser[]; keep?: boolean }): Promise<Evidence> {
  const { world } = run;
  // The subscription's own changes at the start (webhooks subscribe) are the world's setup, not the run's.
  const mutations = await world.service.mutations(world.events.setupSeq);
  const finalUsers = await world.service.users();
  const promises = run.ledger.all();
  const batchIds = new Set(promises.flatMap((promise) => promise.outcome?.batchIds ?? []));
  const outcomes = new Map<string, ReportedOutcome[]>();
  const fromStore = [...batchIds].filter((id) => !/^(b|o)[0-9a-f]{12}/.test(id));
  const unreadable: string[] = [];
  for (const id of batchIds) if (!fromStore.includes(id)) outcomes.set(id, await outcomesFromApi(world, id, unreadable));
  if (fromStore.length > 0) for (const [id, list] of await outcomesFromStore(world, fromStore)) outcomes.set(id, list);

  const offboardings: Evidence['offboardings'][number][] = [];
  for (const [seq, handle] of run.handles) {
    const id = handle.workflowId;
    if (id === undefined || offboardings.some((known) => known.id === id)) continue;
    const answer = await world.api.control.get(`/v1/offboardings/${id}`);
    if (answer.status !== 200) continue;
    const status = answer.body as { workflow?: { state?: string }; leavers?: ReportedLeaver[] };
    offboardings.push({ id, eventSeq: seq, ...(status.workflow?.state === undefined ? {} : { state: status.workflow.state }), leavers: (status.leavers ?? []).map((leaver) => ({ ...leaver, email: leaver.email.toLowerCase() })) });
  }

  const verified = await world.api.control.get('/v1/audit/verify');
  const verification = verified.body as { ok?: boolean } | undefined;
  const entries = await auditTrailOnceToldOf(world, mutations);

  // What an operator asks the command line at the end: `seatflow steps` (every workflow, every lifecycle).
  const listed = await world.cli(['steps', '--json']);
  let stepsToCome: StepToCome[] | undefined;
  try {
    stepsToCome = (JSON.parse(listed.stdout) as { steps: StepToCome[] }).steps;
  } catch {
    stepsToCome = undefined;
  }
  const identities = identitiesOf([run.initialUsers, finalUsers], mutations);
  if (run.keep === true) writeFileSync(path.join(world.dir, 'evidence.json'), JSON.stringify({ promises, outcomes: Object.fromEntries(outcomes), offboardings, finalUsers }, null, 1));
  return {
    promises,
    mutations,
    identities,
    initialUsers: run.initialUsers,
    finalUsers,
    outcomeOf: (ref) => outcomeOf(outcomes, ref, identities),
    offboardings,
    audit: { intact: verified.status === 200 && verification?.ok === true, detail: verified.text.slice(0, 500), entries },
    stepsToCome,
    unreadable,
  };
}

/**
 * The audit trail, read once every change made elsewhere had the time to arrive as a callback and be handled by serve
 * (its queue may be retrying through a storm): up to 60 s, then as it is (what is missing then is a violation).
 */
async function auditTrailOnceToldOf(world: World, mutations: readonly Mutation[]): Promise<AuditLine[]> {
  const outside = mutations.filter((mutation) => isOutside(mutation) && mutation.userId !== undefined);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const trail = await world.api.control.get('/v1/audit?format=jsonl');
    const entries = trail.text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as AuditLine);
    const told = new Set(entries.filter((entry) => entry.event === 'change.outside').map((entry) => entry.data?.userId));
    if (trail.status === 200 && (outside.every((mutation) => told.has(mutation.userId)) || Date.now() > deadline)) return entries;
    if (Date.now() > deadline) throw new Error(`the audit trail could not be read: ${trail.status} ${trail.text.slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The outcome a promise's row has: of its batches, the one that says the change was made, else the first found. */
function outcomeOf(outcomes: ReadonlyMap<string, readonly ReportedOutcome[]>, ref: OutcomeRef, identities: Identities): ReportedOutcome | undefined {
  const emailOf = (outcome: ReportedOutcome) => outcome.email?.toLowerCase() ?? (outcome.userId === undefined ? undefined : identities.emailOf(outcome.userId));
  const found = ref.batchIds.flatMap((id) => (outcomes.get(id) ?? []).filter((outcome) => (ref.row !== undefined ? outcome.row === ref.row : emailOf(outcome) === ref.email)));
  return found.find((outcome) => SAYS_CHANGED.has(outcome.outcome) || outcome.confirmed === true) ?? found[0];
}

/** A batch's outcomes as the API serves them; none for a batch it does not know (404); asked again when it cannot answer. */
async function outcomesFromApi(world: World, batchId: string, unreadable: string[]): Promise<ReportedOutcome[]> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await world.api.control.get(`/v1/batches/${batchId}/outcomes?format=jsonl`);
    if (answer.status === 200) return answer.text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as ReportedOutcome);
    if (answer.status === 404) return [];
    if (attempt === 5) {
      unreadable.push(`${batchId} (${answer.status})`);
      return [];
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function outcomesFromStore(world: World, batchIds: readonly string[]): Promise<Map<string, ReportedOutcome[]>> {
  const redis = await openRedis({ url: String(world.env.REDIS_URL), dataDir: world.dir, logger: createSilentLogger() });
  try {
    const store = createBatchStore(redis.client, createQueueKeys(String(world.env.SEATFLOW_QUEUE_PREFIX)));
    const out = new Map<string, ReportedOutcome[]>();
    for (const id of batchIds) {
      const list: ReportedOutcome[] = [];
      for await (const outcome of store.outcomes(id)) list.push(outcome);
      out.set(id, list);
    }
    return out;
  } finally {
    await redis.close();
  }
}
