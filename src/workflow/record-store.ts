import type { z } from 'zod';
import type { QueueKeys } from '../queue/queue-keys.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import { parseRecord, readableOnly } from '../core/unreadable-record.js';
import { DEFAULT_LIFECYCLE, type WorkflowBase } from './workflow-shapes.js';
import { createRecord } from '../queue/redis/create-record.js';
import { writeTogether, type RedisCommand } from '../queue/redis/write-together.js';

/** How many of the newest workflows are looked at for open ones besides the open set (workflows submitted before it). */
const RECENT_SCANNED = 200;

/**
 * The workflow records of one lifecycle (or of every lifecycle, for the engine) in Redis: one hash per workflow, all in
 * one index by creation time, and a set of the open ones.
 */
export interface RecordStore<R extends WorkflowBase> {
  /** Writes the record (state `submitting`) unless one with its id exists; false when it did. */
  create(record: Omit<R, 'state' | 'lifecycle'>, createdAtMs: number): Promise<boolean>;
  /** The record, when there is one of this store's lifecycle. */
  get(id: string): Promise<R | undefined>;
  /** Newest first, this lifecycle's only. */
  list(limit?: number): Promise<R[]>;
  /** Every workflow of this lifecycle with a person still to come. */
  open(): Promise<R[]>;
  setState(id: string, state: R['state']): Promise<void>;
}

/**
 * `lifecycle` undefined: every lifecycle's records, read with the shape they share (the engine's view). Records
 * written before lifecycles had names have no `lifecycle` field: they are offboardings.
 */
export function createRecordStore<R extends WorkflowBase>(redis: RedisClient, keys: QueueKeys, schema: z.ZodType<R, unknown>, lifecycle?: string): RecordStore<R> {
  const parse = (raw: Record<string, string>, id: string): R | undefined => {
    if (raw.state === undefined) return undefined;
    if (lifecycle !== undefined && (raw.lifecycle ?? DEFAULT_LIFECYCLE) !== lifecycle) return undefined;
    return parseRecord(schema, raw, 'workflow', id);
  };
  const store: RecordStore<R> = {
    async create(record, createdAtMs) {
      const key = keys.workflow(record.id);
      // Offboardings carry no lifecycle field, as before lifecycles had names.
      const fields: Record<string, string> = { state: 'submitting', ...(lifecycle === undefined || lifecycle === DEFAULT_LIFECYCLE ? {} : { lifecycle }) };
      for (const [name, value] of Object.entries(record)) if (value !== undefined) fields[name] = String(value);
      // The record and its entry in the list share the workflows' slot: one script writes both.
      return createRecord(redis, key, fields, 'createdAt', { key: keys.workflows, score: createdAtMs, member: record.id });
    },
    async get(id) {
      return parse(await redis.hgetall(keys.workflow(id)), id);
    },
    async list(limit = 50) {
      const ids = await redis.zrevrange(keys.workflows, 0, limit - 1);
      return readableOnly(ids.map((id) => store.get(id)));
    },
    async open() {
      const ids = new Set([...(await redis.smembers(keys.workflowsOpen)), ...(await redis.zrevrange(keys.workflows, 0, RECENT_SCANNED - 1))]);
      return (await readableOnly([...ids].map((id) => store.get(id)))).filter((record) => record.state === 'open');
    },
    async setState(id, state) {
      const index: RedisCommand = [state === 'open' ? 'SADD' : 'SREM', keys.workflowsOpen, id];
      await writeTogether(redis, [keys.workflowsOpen, keys.workflow(id)], [index, ['HSET', keys.workflow(id), 'state', state]]);
    },
  };
  return store;
}
