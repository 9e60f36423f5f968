import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CompactStringSet } from '../manifest/compact-string-set.js';
import type { QueueKeys } from '../queue/queue-keys.js';
import { luaScript, type RedisClient } from '../queue/redis/lua-script.js';
import type { KeptEmployee } from './employee.js';

/** What is known of the export a sync last accepted (applied) for one target and policy. */
export const acceptedExportSchema = z.object({
  sha256: z.string(),
  /** When the HR system wrote it (epoch ms), as the policy read it. */
  exportedAt: z.coerce.number(),
  exportedAtFrom: z.enum(['column', 'file-modified']),
  acceptedAt: z.string(),
  employees: z.coerce.number(),
  file: z.string(),
  runId: z.string(),
});
export type AcceptedExport = z.infer<typeof acceptedExportSchema>;

// KEYS: staging, accepted, meta. ARGV: '1' when this accept staged employees, then the meta's fields and values.
// Takes the staged employees in place of the accepted ones and rewrites the meta. Staging already gone under a meta
// holding exactly these values is this accept's own run: its answer was lost and ioredis sent the script again.
const TAKE = luaScript('AcceptedExportTake', `
if ARGV[1] == '1' then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('RENAME', KEYS[1], KEYS[2])
  else
    for i = 2, #ARGV, 2 do
      if redis.call('HGET', KEYS[3], ARGV[i]) ~= ARGV[i + 1] then return redis.error_reply('ERR the staged employees are gone') end
    end
  end
else
  redis.call('DEL', KEYS[2])
end
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[3], unpack(ARGV, 2))
return 1`);

const keptSchema = z.object({
  e: z.string(),
  s: z.enum(['a', 'l']).optional(),
  start: z.number().optional(),
  end: z.number().optional(),
  d: z.string().optional(),
  t: z.string().optional(),
  loc: z.string().optional(),
  m: z.string().optional(),
});

/**
 * The accepted export of one target and policy, in Redis (shared by every machine that runs the sync, persisted with
 * the queue): what the next export is compared with. Only an applied sync accepts an export; a plan, a held run or a
 * refused export leaves the accepted one as it was.
 */
export interface AcceptedExports {
  key: string;
  meta(): Promise<AcceptedExport | undefined>;
  /** What was kept of these employees (by id), those the accepted export has: one call, for a chunk of the export. */
  employeesById(ids: readonly string[]): Promise<Map<string, KeptEmployee>>;
  /** Every employee of the accepted export, each once, in no particular order: read from Redis a chunk at a time. */
  employees(): AsyncGenerator<[string, KeptEmployee], void, undefined>;
  /**
   * Replaces the accepted export: the employees are written aside a chunk at a time as they are iterated, then take the
   * old ones' place at once.
   */
  accept(meta: AcceptedExport, employees: Iterable<[string, KeptEmployee]>): Promise<void>;
}

const parseKept = (json: string): KeptEmployee => keptSchema.parse(JSON.parse(json));

/** The key of a target and a policy (the policy's `name`, else its path): another target or policy starts afresh. */
export function syncKeyOf(target: string, policyKey: string): string {
  return createHash('sha256').update(`${target}\n${policyKey}`).digest('hex').slice(0, 16);
}

export function createAcceptedExports(redis: RedisClient, keys: QueueKeys, target: string, policyKey: string): AcceptedExports {
  const key = syncKeyOf(target, policyKey);
  return {
    key,
    async meta() {
      const raw = await redis.hgetall(keys.syncAcceptedMeta(key));
      return raw.sha256 === undefined ? undefined : acceptedExportSchema.parse(raw);
    },
    async employeesById(ids) {
      const kept = new Map<string, KeptEmployee>();
      if (ids.length === 0) return kept;
      const values = await redis.hmget(keys.syncAccepted(key), ...ids);
      ids.forEach((id, i) => {
        const value = values[i];
        if (value !== null && value !== undefined) kept.set(id, parseKept(value));
      });
      return kept;
    },
    async *employees() {
      // HSCAN may answer a field twice (when the hash is resized during the scan): each is given once.
      const seen = new CompactStringSet();
      let cursor = '0';
      do {
        const [next, flat] = await redis.hscan(keys.syncAccepted(key), cursor, 'COUNT', 2000);
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const id = flat[i] ?? '';
          if (seen.add(id)) yield [id, parseKept(flat[i + 1] ?? '{}')];
        }
        cursor = next;
      } while (cursor !== '0');
    },
    async accept(meta, employees) {
      const staging = keys.syncAcceptedStaging(key);
      await redis.del(staging);
      let chunk: string[] = [];
      let staged = false;
      const flush = async () => {
        if (chunk.length > 0) await redis.hset(staging, ...chunk);
        staged ||= chunk.length > 0;
        chunk = [];
      };
      for (const [id, employee] of employees) {
        chunk.push(id, JSON.stringify(employee));
        if (chunk.length >= 2000) await flush();
      }
      await flush();
      const fields = Object.entries(meta).flatMap(([name, value]) => [name, String(value)]);
      await TAKE.run(redis, [staging, keys.syncAccepted(key), keys.syncAcceptedMeta(key)], [staged ? '1' : '0', ...fields]);
    },
  };
}
