import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { QueueKeys } from '../queue/queue-keys.js';
import { luaScript, type RedisClient } from '../queue/redis/lua-script.js';
import { leaverStateSchema, OPEN_PHASES, type LeaverState } from './leaver-state.js';

/** submitting: being set up; open: some leaver has a step to come; finished: every leaver reached an end. */
export const WORKFLOW_STATES = ['submitting', 'open', 'finished'] as const;

const recordSchema = z.object({
  id: z.string(),
  state: z.enum(WORKFLOW_STATES),
  source: z.string(),
  sha256: z.string(),
  createdAt: z.string(),
  target: z.string(),
  sim: z.enum(['true', 'false']).transform((v) => v === 'true'),
  holdMs: z.coerce.number(),
  transferTo: z.string().optional(),
  removeFromSharing: z.enum(['true', 'false']).transform((v) => v === 'true'),
  timeZone: z.string().optional(),
  total: z.coerce.number(),
  /** The step batches (existing batch machinery): one outcome per leaver in each. */
  deactivateBatch: z.string(),
  removeBatch: z.string(),
  reactivateBatch: z.string(),
  /**
   * The seat restored after an undo's reactivation (a downgrade row per leaver whose seat before was lower than
   * MEMBER). Absent in offboardings submitted before it existed: their undo restores no seat.
   */
  restoreBatch: z.string().optional(),
  /**
   * 'true' when the rows of leavers with a step to come are kept in a set (workflowOpen), so that closing a leaver
   * costs one command; offboardings submitted before it are closed by reading every leaver.
   */
  tracksOpen: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export type WorkflowRecord = z.infer<typeof recordSchema>;
export type NewWorkflow = Omit<WorkflowRecord, 'state'>;

// KEYS: leavers. ARGV: row, expected version, json. Writes only over the version the caller read.
const CAS = luaScript('LeaverCompareAndSet', `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and cjson.decode(current)['version'] ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`);

// KEYS: open rows, workflow. ARGV: row. Forgets a leaver with no step to come; the workflow finishes with its last.
// Idempotent: a step that runs twice closes its leaver once. Returns 1 when this closed the workflow.
const CLOSE_LEAVER = luaScript('CloseLeaver', `
if redis.call('SREM', KEYS[1], ARGV[1]) == 1 and redis.call('SCARD', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[2], 'state', 'finished')
  return 1
end
return 0`);

// KEYS: leaving. ARGV: userId, owner. Forgets a leaving user only for the offboarding that marked them.
const CLEAR_LEAVING = luaScript('ClearLeaving', `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`);

export interface WorkflowStore {
  create(record: NewWorkflow, createdAtMs: number): Promise<boolean>;
  get(id: string): Promise<WorkflowRecord | undefined>;
  list(limit?: number): Promise<WorkflowRecord[]>;
  setState(id: string, state: WorkflowRecord['state']): Promise<void>;
  saveLeavers(id: string, leavers: readonly LeaverState[]): Promise<void>;
  getLeaver(id: string, row: number): Promise<LeaverState | undefined>;
  leavers(id: string): Promise<LeaverState[]>;
  /**
   * Applies `change` to the leaver atomically (compare-and-set on its version, retried on a concurrent write). `change`
   * returns undefined to write nothing; the result is the state written, or undefined.
   */
  update(id: string, row: number, change: (leaver: LeaverState) => LeaverState | undefined): Promise<LeaverState | undefined>;
  /** Counts these leavers as having a step to come (submission, retry). */
  openLeavers(id: string, rows: readonly number[]): Promise<void>;
  /**
   * The leaver reached an end: forgets it, and finishes the workflow when it was the last with a step to come. One
   * command for a workflow that tracks its open leavers; the others (submitted before) read every leaver.
   */
  closeLeaver(workflow: WorkflowRecord, row: number): Promise<void>;
  /** Registers leaving users (userId → `offboarding <id> row <n>`), a thousand per command. */
  markLeaving(entries: readonly { userId: number; owner: string }[]): Promise<void>;
  clearLeaving(userId: number, owner: string): Promise<void>;
  leavingIn(userId: number): Promise<string | undefined>;
}

/**
 * The workflow records and leaver states in Redis, and the leaving register of `target` (the API base URL or
 * `sim:<url>`).
 */
export function createWorkflowStore(redis: RedisClient, keys: QueueKeys, target: string): WorkflowStore {
  const leaving = keys.leaving(createHash('sha256').update(target).digest('hex').slice(0, 12));
  const store: WorkflowStore = {
    async create(record, createdAtMs) {
      const key = keys.workflow(record.id);
      if ((await redis.hsetnx(key, 'id', record.id)) === 0) return false;
      const fields: Record<string, string> = { state: 'submitting' };
      for (const [name, value] of Object.entries(record)) if (value !== undefined) fields[name] = String(value);
      await redis.multi().hset(key, fields).zadd(keys.workflows, createdAtMs, record.id).exec();
      return true;
    },
    async get(id) {
      const raw = await redis.hgetall(keys.workflow(id));
      return raw.state === undefined ? undefined : recordSchema.parse(raw);
    },
    async list(limit = 50) {
      const ids = await redis.zrevrange(keys.workflows, 0, limit - 1);
      return (await Promise.all(ids.map((id) => store.get(id)))).filter((r): r is WorkflowRecord => r !== undefined);
    },
    async setState(id, state) {
      await redis.hset(keys.workflow(id), 'state', state);
    },
    async saveLeavers(id, leavers) {
      if (leavers.length === 0) return;
      await redis.hset(keys.leavers(id), Object.fromEntries(leavers.map((leaver) => [String(leaver.row), JSON.stringify(leaver)])));
    },
    async getLeaver(id, row) {
      const json = await redis.hget(keys.leavers(id), String(row));
      return json === null ? undefined : leaverStateSchema.parse(JSON.parse(json));
    },
    async leavers(id) {
      const all = await redis.hvals(keys.leavers(id));
      return all.map((json) => leaverStateSchema.parse(JSON.parse(json))).sort((a, b) => a.row - b.row);
    },
    async update(id, row, change) {
      for (;;) {
        const current = await store.getLeaver(id, row);
        if (current === undefined) return undefined;
        const next = change(current);
        if (next === undefined) return undefined;
        const written = { ...next, version: current.version + 1 };
        if ((await CAS.run(redis, [keys.leavers(id)], [String(row), current.version, JSON.stringify(written)])) === 1) return written;
      }
    },
    async openLeavers(id, rows) {
      for (let i = 0; i < rows.length; i += 1000) {
        const slice = rows.slice(i, i + 1000).map(String);
        if (slice.length > 0) await redis.sadd(keys.workflowOpen(id), ...slice);
      }
    },
    async closeLeaver(workflow, row) {
      if (workflow.tracksOpen === true) {
        await CLOSE_LEAVER.run(redis, [keys.workflowOpen(workflow.id), keys.workflow(workflow.id)], [String(row)]);
        return;
      }
      const all = await store.leavers(workflow.id);
      if (all.every((other) => !OPEN_PHASES.has(other.phase))) await store.setState(workflow.id, 'finished');
    },
    async markLeaving(entries) {
      for (let i = 0; i < entries.length; i += 1000) {
        const slice = entries.slice(i, i + 1000);
        if (slice.length > 0) await redis.hset(leaving, Object.fromEntries(slice.map((entry) => [String(entry.userId), entry.owner])));
      }
    },
    async clearLeaving(userId, owner) {
      await CLEAR_LEAVING.run(redis, [leaving], [String(userId), owner]);
    },
    async leavingIn(userId) {
      return (await redis.hget(leaving, String(userId))) ?? undefined;
    },
  };
  return store;
}

/** How the leaving register names a leaver: `offboarding <id> row <n>`. */
export function leavingOwner(workflowId: string, row: number): string {
  return `offboarding ${workflowId} row ${row}`;
}
