import { z } from 'zod';
import type { QueueKeys } from '../../queue/queue-keys.js';
import { luaScript, type RedisClient } from '../../queue/redis/lua-script.js';
import { setOnce } from '../../queue/redis/set-once.js';
import { approvalRecordSchema, type ApprovalRecord, type ApprovalState } from './approval-record.js';
import type { PlanLine } from './plan-fingerprint.js';

// KEYS: record. ARGV: the version the change was made on, the new JSON. Compare-and-set: two approvers (or an
// approver and a re-plan) never both act on one state of a request. A record that holds this very JSON is this
// change's: the script ran and its answer was lost, and the connection sent it again on reconnecting.
const REPLACE = luaScript('ApprovalReplace', `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if current == ARGV[2] then return 1 end
if tostring(cjson.decode(current)['version']) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`);

const planLinesSchema = z.array(z.object({ key: z.string(), text: z.string(), decision: z.record(z.string(), z.unknown()), view: z.record(z.string(), z.union([z.string(), z.number()])).optional() }));

export interface ApprovalStore {
  /** Stores a new request with its plan and what it re-plans from; false when one with this id exists. */
  create(record: ApprovalRecord, lines: readonly PlanLine[], input: unknown): Promise<boolean>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Replaces the record if nobody changed it since `record.version` was read; stores it with version + 1. */
  replace(record: ApprovalRecord, changes: Partial<ApprovalRecord>): Promise<ApprovalRecord | undefined>;
  lines(id: string): Promise<PlanLine[]>;
  setLines(id: string, lines: readonly PlanLine[]): Promise<void>;
  input(id: string): Promise<unknown>;
  /** Newest first; only those in `states` when given. */
  list(options?: { states?: readonly ApprovalState[]; limit?: number }): Promise<ApprovalRecord[]>;
}

/** Change requests in Redis, all under the `{approvals}` tag (one slot, so the compare-and-set works on a cluster). */
export function createApprovalStore(redis: RedisClient, keys: Pick<QueueKeys, 'approvals' | 'approval' | 'approvalInput' | 'approvalPlan'>): ApprovalStore {
  const store: ApprovalStore = {
    async create(record, lines, input) {
      // Plan and input first: a request is never visible without what approving it needs.
      await redis.set(keys.approvalPlan(record.id), JSON.stringify(lines));
      await redis.set(keys.approvalInput(record.id), JSON.stringify(input));
      const json = JSON.stringify(approvalRecordSchema.parse(record));
      // A record holding exactly this JSON is this call's: the SET ran, its answer was lost and ioredis sent it again.
      const created = await setOnce(redis, keys.approval(record.id), json);
      if (created) await redis.zadd(keys.approvals, Date.parse(record.requestedAt), record.id);
      return created;
    },
    async get(id) {
      const json = await redis.get(keys.approval(id));
      return json === null ? undefined : approvalRecordSchema.parse(JSON.parse(json));
    },
    async replace(record, changes) {
      const next = approvalRecordSchema.parse({ ...record, ...changes, version: record.version + 1 });
      return (await REPLACE.run(redis, [keys.approval(record.id)], [String(record.version), JSON.stringify(next)])) === 1 ? next : undefined;
    },
    async lines(id) {
      const json = await redis.get(keys.approvalPlan(id));
      return json === null ? [] : (planLinesSchema.parse(JSON.parse(json)) as PlanLine[]);
    },
    async setLines(id, lines) {
      await redis.set(keys.approvalPlan(id), JSON.stringify(lines));
    },
    async input(id) {
      const json = await redis.get(keys.approvalInput(id));
      return json === null ? undefined : (JSON.parse(json) as unknown);
    },
    async list(options = {}) {
      const limit = options.limit ?? 50;
      const out: ApprovalRecord[] = [];
      // Read in pages: a long history of decided requests must not hide the waiting ones behind a small limit.
      for (let start = 0; out.length < limit; start += 200) {
        const ids = await redis.zrevrange(keys.approvals, start, start + 199);
        if (ids.length === 0) break;
        for (const id of ids) {
          const record = await store.get(id);
          if (record !== undefined && (options.states === undefined || options.states.includes(record.state))) out.push(record);
          if (out.length >= limit) break;
        }
      }
      return out;
    },
  };
  return store;
}
