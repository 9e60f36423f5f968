import type { QueueKeys } from '../../queue/queue-keys.js';
import { luaScript, type RedisClient } from '../../queue/redis/lua-script.js';
import { auditEntrySchema, GENESIS_HASH, sealEntry, type AuditEntry, type AuditRecord } from './audit-entry.js';

// KEYS: log (stream), head (hash), once (set). ARGV: the prev hash the entry was sealed on, its seq, its JSON, its
// hash, and its once-key ('' for none). Appends only when the head is still what the entry was sealed on
// (compare-and-set): two writers never chain two entries onto one predecessor. An entry with a once-key is appended
// only if no entry with that key was: a row's entry written by its worker and by a catch-up after a crash is one entry.
// Returns {1, id} when appended, {0} when another entry came first (seal again), {2} when the once-key was taken. A
// head that is this very entry (its hash) was appended by this call: the answer was lost, and the connection sent the
// script again on reconnecting; it is answered as the first time, not sealed and appended again.
const APPEND = luaScript('AuditAppendOnce', `
if redis.call('HGET', KEYS[2], 'hash') == ARGV[4] then return {1, redis.call('HGET', KEYS[2], 'id')} end
if ARGV[5] ~= '' and redis.call('SISMEMBER', KEYS[3], ARGV[5]) == 1 then return {2} end
local prev = redis.call('HGET', KEYS[2], 'hash') or '${GENESIS_HASH}'
if prev ~= ARGV[1] then return {0} end
local id = redis.call('XADD', KEYS[1], '*', 'e', ARGV[3])
redis.call('HSET', KEYS[2], 'seq', ARGV[2], 'hash', ARGV[4], 'id', id)
if ARGV[5] ~= '' then redis.call('SADD', KEYS[3], ARGV[5]) end
return {1, id}`);

/** The last entry: its place in the chain. */
export interface AuditHead {
  seq: number;
  hash: string;
  /** Its stream id. */
  id?: string;
}

/** An entry as read back, with its stream id (the Redis time it was stored, `<ms>-<n>`). */
export interface StoredAuditEntry {
  id: string;
  /** The stored JSON, as it was written. */
  raw: string;
}

export interface AuditLog {
  /** Appends one entry after the current head; resolves the sealed entry. */
  append(record: AuditRecord): Promise<AuditEntry>;
  /**
   * Appends the entry unless an entry with the same `once` key was appended before (then resolves undefined): what
   * makes a row's entry appendable again by a catch-up after a crash, without ever being there twice.
   */
  appendOnce(record: AuditRecord, once: string): Promise<AuditEntry | undefined>;
  head(): Promise<AuditHead>;
  /**
   * Stored entries in order, read in slices; `fromMs`/`toMs` bound the stream ids (Redis time), so a date range
   * reads only its part of a long log.
   */
  entries(range?: { fromMs?: number; toMs?: number }): AsyncIterable<StoredAuditEntry>;
  /** The most recent entries, newest first (the dashboard). */
  latest(count: number, beforeId?: string): Promise<StoredAuditEntry[]>;
}

export interface AuditLogOptions {
  now?: () => Date;
}

/**
 * The audit trail in Redis: a stream under its own hash tag (append-only: XADD only, never trimmed; a stream entry
 * cannot be edited in place), and a head that the append script alone moves. Works on a cluster: its keys share the
 * `{audit}` slot.
 */
export function createAuditLog(redis: RedisClient, keys: Pick<QueueKeys, 'auditLog' | 'auditHead'>, options: AuditLogOptions = {}): AuditLog {
  const now = options.now ?? (() => new Date());

  async function head(): Promise<AuditHead> {
    const [seq, hash, id] = await redis.hmget(keys.auditHead, 'seq', 'hash', 'id');
    return { seq: Number(seq ?? 0), hash: hash ?? GENESIS_HASH, ...(id === null ? {} : { id }) };
  }

  // Beside the head, under the same {audit} tag (one slot on a cluster): the once-keys of the entries appended with one.
  const onceKey = `${keys.auditHead}:once`;

  async function appendWith(record: AuditRecord, once: string): Promise<AuditEntry | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const current = await head();
      const entry = sealEntry({
        seq: current.seq + 1,
        at: now().toISOString(),
        event: record.event,
        actor: record.actor,
        subject: record.subject,
        ...(record.reason === undefined || record.reason === '' ? {} : { reason: record.reason }),
        data: JSON.parse(JSON.stringify(record.data ?? {})) as Record<string, unknown>,
        prev: current.hash,
      });
      auditEntrySchema.parse(entry);
      const result = (await APPEND.run(redis, [keys.auditLog, keys.auditHead, onceKey], [entry.prev, entry.seq, JSON.stringify(entry), entry.hash, once])) as [number, string?];
      if (result[0] === 1) return entry;
      if (result[0] === 2) return undefined;
      // Another process appended between our read of the head and our append: seal on the new head.
      if (attempt > 1000) throw new Error('the audit log is too busy to append to (1000 tries lost to other writers)');
    }
  }

  return {
    head,
    async append(record) {
      return (await appendWith(record, ''))!;
    },
    appendOnce: (record, once) => appendWith(record, once),
    async *entries(range = {}) {
      let start = range.fromMs === undefined ? '-' : `${Math.max(0, Math.floor(range.fromMs))}-0`;
      const end = range.toMs === undefined ? '+' : `${Math.floor(range.toMs)}`;
      for (;;) {
        const slice = await redis.xrange(keys.auditLog, start, end, 'COUNT', 500);
        for (const [id, fields] of slice) yield { id, raw: fieldOf(fields, 'e') };
        if (slice.length < 500) return;
        start = `(${slice[slice.length - 1]![0]}`;
      }
    },
    async latest(count, beforeId) {
      const slice = await redis.xrevrange(keys.auditLog, beforeId === undefined ? '+' : `(${beforeId}`, '-', 'COUNT', count);
      return slice.map(([id, fields]) => ({ id, raw: fieldOf(fields, 'e') }));
    },
  };
}

function fieldOf(fields: string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1]!;
  return '';
}
