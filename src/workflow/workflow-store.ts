import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { QueueKeys } from '../queue/queue-keys.js';
import { luaScript, type RedisClient } from '../queue/redis/lua-script.js';
import type { ReplicatedWrites } from '../queue/redis/replicated-write.js';
import { leaverStateSchema, OPEN_PHASES, type LeaverState } from './leaver-state.js';
import { DEFAULT_LIFECYCLE, workflowBaseShape } from './workflow-shapes.js';
import { createPersonStore, type PersonStore } from './person-store.js';
import { createRecordStore, type RecordStore } from './record-store.js';

/** An offboarding's record: the fields of every workflow (lifecycle.ts) and the offboarding's options and step batches. */
const recordSchema = z.object({
  ...workflowBaseShape,
  holdMs: z.coerce.number(),
  transferTo: z.string().optional(),
  removeFromSharing: z.enum(['true', 'false']).transform((v) => v === 'true'),
  /** The step batches (existing batch machinery): one outcome per leaver in each. */
  deactivateBatch: z.string(),
  removeBatch: z.string(),
  reactivateBatch: z.string(),
  /**
   * The seat restored after an undo's reactivation (a downgrade row per leaver whose seat before was lower than
   * MEMBER). Absent in offboardings submitted before it existed: their undo restores no seat.
   */
  restoreBatch: z.string().optional(),
});
export type WorkflowRecord = z.infer<typeof recordSchema>;
export type NewWorkflow = Omit<WorkflowRecord, 'state'>;

// KEYS: leaving. ARGV: userId, owner. Forgets a leaving user only for the offboarding that marked them.
const CLEAR_LEAVING = luaScript('ClearLeaving', `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`);

export interface WorkflowStore {
  create(record: NewWorkflow, createdAtMs: number): Promise<boolean>;
  get(id: string): Promise<WorkflowRecord | undefined>;
  /** Offboardings only, newest first. */
  list(limit?: number): Promise<WorkflowRecord[]>;
  /** Every offboarding with a leaver still to come. */
  open(): Promise<WorkflowRecord[]>;
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
  /** Every leaving user of the target (userId → owner): as many as the open offboardings' leavers. */
  leavingAll(): Promise<Map<number, string>>;
}

/** The offboardings' leavers, as the engine's person store of the offboarding lifecycle keeps them (see createPersonStore). */
export function createLeaverStore(redis: RedisClient, keys: QueueKeys, replicated?: ReplicatedWrites): PersonStore<LeaverState> {
  return createPersonStore(redis, keys, leaverStateSchema, replicated);
}

/** The offboardings' records, as the engine's record store of the offboarding lifecycle keeps them. */
export function createOffboardingRecords(redis: RedisClient, keys: QueueKeys): RecordStore<WorkflowRecord> {
  return createRecordStore(redis, keys, recordSchema, DEFAULT_LIFECYCLE);
}

/**
 * The offboarding records and leaver states in Redis (the engine's stores of the offboarding lifecycle), and the
 * leaving register of `target` (the API base URL or `sim:<url>`). `replicated`: the engine's, for leavers' states
 * that must survive a failover (absent where the store is only read).
 */
export function createWorkflowStore(redis: RedisClient, keys: QueueKeys, target: string, replicated?: ReplicatedWrites): WorkflowStore {
  const leaving = keys.leaving(createHash('sha256').update(target).digest('hex').slice(0, 12));
  const records = createOffboardingRecords(redis, keys);
  const leavers = createLeaverStore(redis, keys, replicated);
  return {
    create: (record, createdAtMs) => records.create(record, createdAtMs),
    get: (id) => records.get(id),
    list: (limit) => records.list(limit),
    open: () => records.open(),
    setState: (id, state) => records.setState(id, state),
    saveLeavers: (id, all) => leavers.save(id, all),
    getLeaver: (id, row) => leavers.get(id, row),
    leavers: (id) => leavers.all(id),
    update: (id, row, change) => leavers.update(id, row, change),
    openLeavers: (id, rows) => leavers.open(id, rows),
    closeLeaver: (workflow, row) => leavers.close(workflow, row, OPEN_PHASES),
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
    async leavingAll() {
      return new Map(Object.entries(await redis.hgetall(leaving)).map(([userId, owner]) => [Number(userId), owner]));
    },
  };
}

/** The offboarding and row an owner of the leaving register names (`offboarding <id> row <n>`). */
export function leavingOwnerOf(owner: string): { workflowId: string; row: number } | undefined {
  const match = /^offboarding (\S+) row (\d+)$/.exec(owner);
  return match === null ? undefined : { workflowId: match[1] ?? '', row: Number(match[2]) };
}

/** How the leaving register names a leaver: `offboarding <id> row <n>`. */
export function leavingOwner(workflowId: string, row: number): string {
  return `offboarding ${workflowId} row ${row}`;
}
