import type { z } from 'zod';
import type { QueueKeys } from '../queue/queue-keys.js';
import { luaScript, type RedisClient } from '../queue/redis/lua-script.js';
import type { ReplicatedWrites } from '../queue/redis/replicated-write.js';
import type { PersonBase, WorkflowBase } from './workflow-shapes.js';
import { writeTogether } from '../queue/redis/write-together.js';

// KEYS: persons. ARGV: row, expected version, json. Writes only over the version the caller read. A person who holds
// this very write already is the caller's: Redis made it and the answer was lost, and the connection sent the script
// again on reconnecting (ioredis resends unanswered commands). Read as "someone else moved the person on", the step
// that made it would skip what follows its write (soak seed 7035: a leaver `removed`, her reactivate and restore rows
// never ended, the offboarding open for good).
const CAS = luaScript('LeaverCompareAndSet', `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current == ARGV[3] then return 1 end
if current and cjson.decode(current)['version'] ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`);

// KEYS: persons. ARGV: row, the version a compare-and-set wrote over, the json it wrote. Makes it again where a
// failover lost it: written again while the person is still at that version. 1 when the person holds the write (or a
// later version, made over it: a failover that lost the write and another that replaced it, both, is taken as
// unlikely next to a replica that lags); 0 when another write took its place, or the person went further back.
const CAS_AGAIN = luaScript('LeaverCompareAndSetAgain', `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current == ARGV[3] then return 1 end
local version = current and cjson.decode(current)['version']
if not current or version == tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
if version > tonumber(ARGV[2]) + 1 then return 1 end
return 0`);

// KEYS: open rows, workflow, open workflows. ARGV: row, workflow id. Forgets a person with no step to come; the
// workflow finishes with its last. Idempotent: a step that runs twice closes its person once. Returns 1 when this
// closed the workflow.
const CLOSE_PERSON = luaScript('ClosePerson', `
if redis.call('SREM', KEYS[1], ARGV[1]) == 1 and redis.call('SCARD', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[2], 'state', 'finished')
  redis.call('SREM', KEYS[3], ARGV[2])
  return 1
end
return 0`);

/** The people of the workflows of one lifecycle: one hash per workflow (row → state JSON), written compare-and-set. */
export interface PersonStore<P extends PersonBase> {
  save(workflowId: string, persons: readonly P[]): Promise<void>;
  get(workflowId: string, row: number): Promise<P | undefined>;
  /** Every person of the workflow, by row. */
  all(workflowId: string): Promise<P[]>;
  /**
   * Applies `change` to the person atomically (compare-and-set on its version, retried on a concurrent write).
   * `change` returns undefined to write nothing; the result is the state written, or undefined. With replicated
   * writes, the result is held by a replica (or replicas were found missing): what seatflow answers and acts on
   * after it (an undo's "undone", a step's phase) survives a failover.
   */
  update(workflowId: string, row: number, change: (person: P) => P | undefined): Promise<P | undefined>;
  /** Counts these people as having a step to come (submission, retry). */
  open(workflowId: string, rows: readonly number[]): Promise<void>;
  /**
   * The person reached an end: forgets them, and finishes the workflow when they were the last with a step to come.
   * One command for a workflow that tracks its open people; the others (offboardings submitted before) read everyone.
   */
  close(workflow: Pick<WorkflowBase, 'id' | 'tracksOpen'>, row: number, openPhases: ReadonlySet<string>): Promise<void>;
}

/**
 * `replicated` (the engine's, on `redis`): a state written is made again until a replica holds it; without it (a
 * store that only reads) a state is written once.
 */
export function createPersonStore<P extends PersonBase>(redis: RedisClient, keys: QueueKeys, schema: z.ZodType<P, unknown>, replicated?: ReplicatedWrites): PersonStore<P> {
  /**
   * Makes the compare-and-set that was just made again until a replica holds it; false when the write was lost (a
   * failover) and another took its place: the change must then be made again over what is there now.
   */
  const kept = async (key: string, args: readonly (string | number)[]): Promise<boolean> => {
    if (replicated === undefined) return true;
    let calls = 0;
    let superseded = false;
    await replicated.write(key, async () => {
      calls += 1;
      // The first call is the compare-and-set just made (without replicas, the only one); the later ones make it again.
      if (calls === 1 || superseded) return;
      if ((await CAS_AGAIN.run(redis, [key], args)) !== 1) superseded = true;
    });
    return !superseded;
  };
  const store: PersonStore<P> = {
    async save(id, persons) {
      for (let i = 0; i < persons.length; i += 1000) {
        const slice = persons.slice(i, i + 1000);
        if (slice.length > 0) await redis.hset(keys.leavers(id), Object.fromEntries(slice.map((person) => [String(person.row), JSON.stringify(person)])));
      }
    },
    async get(id, row) {
      const json = await redis.hget(keys.leavers(id), String(row));
      return json === null ? undefined : schema.parse(JSON.parse(json));
    },
    async all(id) {
      const all = await redis.hvals(keys.leavers(id));
      return all.map((json) => schema.parse(JSON.parse(json))).sort((a, b) => a.row - b.row);
    },
    async update(id, row, change) {
      for (;;) {
        const current = await store.get(id, row);
        if (current === undefined) return undefined;
        const next = change(current);
        if (next === undefined) return undefined;
        const written = { ...next, version: current.version + 1 };
        const args = [String(row), current.version, JSON.stringify(written)];
        if ((await CAS.run(redis, [keys.leavers(id)], args)) === 1 && (await kept(keys.leavers(id), args))) return written;
      }
    },
    async open(id, rows) {
      for (let i = 0; i < rows.length; i += 1000) {
        const slice = rows.slice(i, i + 1000).map(String);
        if (slice.length > 0) await redis.sadd(keys.workflowOpen(id), ...slice);
      }
    },
    async close(workflow, row, openPhases) {
      if (workflow.tracksOpen === true) {
        await CLOSE_PERSON.run(redis, [keys.workflowOpen(workflow.id), keys.workflow(workflow.id), keys.workflowsOpen], [String(row), workflow.id]);
        return;
      }
      const all = await store.all(workflow.id);
      if (!all.every((other) => !openPhases.has(other.phase))) return;
      await writeTogether(redis, [keys.workflow(workflow.id), keys.workflowsOpen], [['HSET', keys.workflow(workflow.id), 'state', 'finished'], ['SREM', keys.workflowsOpen, workflow.id]]);
    },
  };
  return store;
}
