import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { emailKey, userKey, type ChangePromise } from '../ledger/promise.js';
import { promiseOffboardingPlan } from '../ledger/promise-offboarding-plan.js';
import { exportCsv, nextRoster, SIM_POLICY_FILE, SIM_POLICY_HOLD_MS, type Employee } from '../scenario/hr-roster.js';
import { callWithRetries, describeAnswer, type RetriedAnswer } from './call-with-retries.js';
import type { Ledger } from '../ledger/ledger.js';
import { amendForUndo } from './undo-offboarding.js';
import type { OperatorAction, PerformContext } from './operator-action.js';

interface SyncAnswer {
  runId?: string;
  applied?: { joiners?: { workflowId: string }; movers?: { workflowId: string }; offboarding?: { workflowId: string }; undos: { email: string; workflowId: string; result: string; reactivating?: boolean; message: string }[] } | null;
  report?: { csv: string };
  heldBecause?: string[];
  nothingToChange?: boolean;
  awaitingApproval?: boolean;
}

/** One line of the sync's plan report (src/sync/sync-report.ts): who, what, when, the verdict, the workflow. */
interface ReportLine {
  kind: string;
  email: string;
  userId: string;
  action: string;
  due: string;
  verdict: string;
  workflowId: string;
}

/**
 * Tonight's HR export, synced through the control API (`POST /v1/syncs?policy=sim-lifecycle.json`, as a nightly job
 * would): joiners on their start date, movers to their new seat, leavers offboarded on their last day, someone
 * employed again undone. The plan report the sync wrote for the run it applied is the promise, line by line; a broken
 * export must change nothing.
 */
export const hrSync: OperatorAction = {
  name: 'hr-sync',
  perDay: 'once',
  hours: [2, 3],
  draw(context) {
    const last = [...context.earlier].reverse().find((event) => event.name === 'hr-sync' && event.params.broken !== true);
    const previous = last?.params.employees as Employee[] | undefined;
    const { employees, changes } = nextRoster(context.draw, previous, context.population, context.startAt + context.at, context.fresh);
    return { employees, broken: previous !== undefined && changes.broken, changes: { ...changes }, name: `${context.fresh('hr-export')}.csv` };
  },
  async perform(params, context) {
    const employees = params.employees as Employee[];
    const at = await context.now();
    const bytes = exportCsv(employees, at, params.broken === true);
    const query = new URLSearchParams({ policy: SIM_POLICY_FILE, confirm: 'true', name: String(params.name), reason: 'nightly HR export (simulation)' });
    const answer = await callWithRetries(() => context.world.api.hr.post(`/v1/syncs?${query}`, { bytes, type: 'text/csv' }));
    try {
      await promiseAnswer(answer, params, bytes, at, context);
    } finally {
      // A try refused as not acknowledged may still run as its report said: optional, unless the answer promised it.
      await promiseUnacknowledged(answer, at, context);
    }
  },
};

async function promiseAnswer(answer: RetriedAnswer, params: Record<string, unknown>, bytes: string, at: number, context: PerformContext): Promise<void> {
  let body = (answer.status === 409 ? (answer.body as { error?: { details?: { sync?: SyncAnswer } } }).error?.details?.sync : answer.body) as SyncAnswer | undefined;
  // An answer lost (the first request took longer than the client waited) and asked again: this export is the one
  // accepted already, so the plan it was applied with is the report of that run, which the sync wrote.
  const same = answer.body as { sameExport?: boolean; previous?: { sha256?: string; runId?: string } } | undefined;
  if (same?.sameExport === true && same.previous?.sha256 === sha256Of(bytes)) body = reportedRun(context.world.home, same.previous.sha256);
  if (body?.report === undefined) {
    await context.note(`sync ${String(params.name)}${params.broken === true ? ' (broken export)' : ''}: ${describeAnswer(answer)}`);
    return;
  }
  if (body.applied === undefined || body.applied === null) {
    await context.note(`sync ${String(params.name)}${params.broken === true ? ' (broken export)' : ''}: nothing applied (${answer.status}${body.heldBecause === undefined ? '' : `, held: ${body.heldBecause.join('; ')}`}${body.awaitingApproval === true ? ', awaits approval' : ''})`);
    return;
  }
  const lines = parse(readFileSync(body.report.csv, 'utf8'), { columns: true, skip_empty_lines: true }) as ReportLine[];
  const made = promiseSync(context, body.runId, lines, at, 'expected');
  for (const undo of body.applied.undos) amendForUndo(context.ledger, undo.workflowId, undo, at, context.event.seq);
  const workflows = { ...(body.applied.joiners === undefined ? {} : { joiners: body.applied.joiners.workflowId }), ...(body.applied.movers === undefined ? {} : { movers: body.applied.movers.workflowId }), ...(body.applied.offboarding === undefined ? {} : { offboarding: body.applied.offboarding.workflowId }) };
  context.remember({ workflows, ...(workflows.offboarding === undefined ? {} : { workflowId: workflows.offboarding, holdMs: SIM_POLICY_HOLD_MS }), promiseKeys: made });
  await context.note(`sync ${String(params.name)}: applied ${JSON.stringify(workflows)}; ${made.length} promises; ${body.applied.undos.map((undo) => `undo ${undo.email} ${undo.result}`).join(', ')}`);
}

/** The report a REDIS_NO_REPLICA refusal of the sync named: its lines promised as optional, where not promised already. */
async function promiseUnacknowledged(answer: RetriedAnswer, at: number, context: PerformContext): Promise<void> {
  const error = (answer.unacknowledged?.body as { error?: { runId?: string; report?: { csv?: string } } } | undefined)?.error;
  const csv = error?.report?.csv;
  if (csv === undefined || !existsSync(csv)) return;
  const lines = parse(readFileSync(csv, 'utf8'), { columns: true, skip_empty_lines: true }) as ReportLine[];
  const made = promiseSync(context, error?.runId, lines, at, 'optional');
  await context.note(`sync run ${error?.runId ?? '?'} refused as not acknowledged: ${made.length} optional promises from its report`);
}

/** The report's lines as promises, keyed by the sync run and the person. */
function promiseSync(context: PerformContext, runId: string | undefined, lines: readonly ReportLine[], at: number, state: 'expected' | 'optional'): string[] {
  // Optional promises (a refused try's report) leave alone what the answer promised already.
  const ledger: Ledger = state === 'expected' ? context.ledger : { ...context.ledger, promise: (promise) => (context.ledger.get(promise.key) === undefined ? context.ledger.promise(promise) : undefined) };
  const run = runId ?? 'sync';
  const seq = context.event.seq;
  const keys: string[] = [];
  const add = (promise: Omit<ChangePromise, 'history' | 'since' | 'eventSeq' | 'state'> & { state?: ChangePromise['state'] }) => {
    ledger.promise({ state, ...promise, ...(state === 'optional' ? { state } : {}), eventSeq: seq, since: at });
    keys.push(promise.key);
  };
  const dueOf = (line: ReportLine) => (line.due === '' ? at : Date.parse(line.due));
  const leavers = [];
  for (const line of lines) {
    if (line.verdict !== 'change' && !(line.kind === 'leaver' && line.verdict !== 'refused')) continue;
    const email = line.email.toLowerCase();
    const subject = line.userId === '' ? emailKey(email) : userKey(Number(line.userId));
    if (line.kind === 'joiner') {
      add({ key: `${run}:${email}:join`, label: `sync ${run}: joiner ${email} (${line.action})`, changes: [{ operation: 'addUser', subject: emailKey(email) }, { operation: 'reactivateUser', subject: emailKey(email) }], notBefore: dueOf(line), outcome: { batchIds: [`${line.workflowId}-add`, `${line.workflowId}-reactivate`], email } });
      add({ key: `${run}:${email}:seat`, label: `sync ${run}: joiner ${email}'s seat`, changes: [{ operation: 'upgradeUser', subject: emailKey(email) }, { operation: 'downgradeUser', subject: emailKey(email) }], notBefore: dueOf(line), state: 'optional', outcome: { batchIds: [`${line.workflowId}-seat`], email } });
    } else if (line.kind === 'mover') {
      add({ key: `${run}:${email}:move`, label: `sync ${run}: mover ${email} (${line.action})`, changes: [{ operation: line.action === 'upgrade' ? 'upgradeUser' : 'downgradeUser', subject }], notBefore: dueOf(line), outcome: { batchIds: [`${line.workflowId}-seat`], email } });
    } else if (line.kind === 'leaver' && line.userId !== '') {
      leavers.push({ email, userId: Number(line.userId), leaveAt: dueOf(line), verdict: line.action, workflowId: line.workflowId });
    }
  }
  const workflowId = leavers[0]?.workflowId;
  if (workflowId !== undefined && workflowId !== '') {
    keys.push(...promiseOffboardingPlan(ledger, { workflowId, leavers, holdMs: SIM_POLICY_HOLD_MS, eventSeq: seq, state, at, label: `sync ${run}: offboarding ${workflowId}` }));
  }
  return keys;
}


function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The run of the sync that accepted this export, as its plan report (`<home>/sync/<policy>-<time>-<sha256, 12>.json`) says it. */
function reportedRun(home: string, sha256: string): SyncAnswer | undefined {
  const dir = path.join(home, 'sync');
  const json = existsSync(dir) ? readdirSync(dir).find((name) => name.endsWith(`-${sha256.slice(0, 12)}.json`)) : undefined;
  if (json === undefined) return undefined;
  const run = JSON.parse(readFileSync(path.join(dir, json), 'utf8')) as SyncAnswer;
  return { ...run, report: { csv: path.join(dir, json.replace(/\.json$/, '.csv')) } };
}
