import { auditEntrySchema, entryHash, GENESIS_HASH, type AuditEntry } from './audit-entry.js';
import type { AuditHead, AuditLog } from './audit-log.js';

/** Where the chain breaks, and how, in words an auditor can act on. */
export interface BrokenEntry {
  /** The entry's sequence number as it claims it (or the one expected there, when the entry cannot be read). */
  seq: number;
  /** Where it is: a stream id, or `line N` of a file. */
  where: string;
  problem: string;
}

export interface AuditVerification {
  ok: boolean;
  /** Entries checked. */
  entries: number;
  first?: { seq: number; at: string };
  last?: { seq: number; at: string; hash: string };
  /** The first entry that breaks the chain, when one does. */
  broken?: BrokenEntry;
  /**
   * Rows that ended and whose entry is not in the trail yet (checking the log in Redis only): a worker's catch-up
   * appends each within a minute. Not a break: the chain is whole, it is behind.
   */
  pending?: number;
}

export interface VerifyOptions {
  /**
   * The log's head (the last entry's seq and hash): an entry removed from the end is found by it. Absent when
   * checking an export, which may end anywhere.
   */
  head?: AuditHead;
  /**
   * True when the entries start at the beginning of the log (the first must be seq 1 on the genesis hash); false for
   * a date range, whose first entry is checked on its own and chained from there.
   */
  fromStart: boolean;
}

/**
 * Checks a run of entries: each parses, carries the next sequence number, names the previous entry's hash as `prev`,
 * and its own `hash` is what its content gives. Stops at the first break, which it names.
 */
export async function verifyAuditEntries(entries: AsyncIterable<{ raw: string; where: string }>, options: VerifyOptions): Promise<AuditVerification> {
  let count = 0;
  let previous: AuditEntry | undefined;
  let first: AuditVerification['first'];
  const broken = (seq: number, where: string, problem: string): AuditVerification => ({
    ok: false,
    entries: count,
    ...(first === undefined ? {} : { first }),
    ...(previous === undefined ? {} : { last: { seq: previous.seq, at: previous.at, hash: previous.hash } }),
    broken: { seq, where, problem },
  });
  for await (const { raw, where } of entries) {
    const expectedSeq = previous === undefined ? (options.fromStart ? 1 : undefined) : previous.seq + 1;
    let entry: AuditEntry;
    try {
      entry = auditEntrySchema.parse(JSON.parse(raw));
    } catch {
      return broken(expectedSeq ?? 0, where, 'the entry is not a readable audit entry (its JSON or fields were changed)');
    }
    if (expectedSeq !== undefined && entry.seq !== expectedSeq) {
      return broken(entry.seq, where, entry.seq > expectedSeq ? `entries ${expectedSeq}–${entry.seq - 1} are missing before it` : `it repeats or reorders sequence number ${entry.seq} (expected ${expectedSeq})`);
    }
    const expectedPrev = previous?.hash ?? (options.fromStart ? GENESIS_HASH : undefined);
    if (expectedPrev !== undefined && entry.prev !== expectedPrev) {
      return broken(entry.seq, where, `its prev hash ${short(entry.prev)} is not the hash of the entry before it (${short(expectedPrev)}): an entry before it was changed, removed or inserted`);
    }
    const { hash, ...body } = entry;
    if (entryHash(body) !== hash) {
      return broken(entry.seq, where, 'its content does not give its hash: the entry was changed after it was written');
    }
    count += 1;
    first ??= { seq: entry.seq, at: entry.at };
    previous = entry;
  }
  const { head } = options;
  if (head !== undefined && head.seq > 0) {
    if (previous === undefined || previous.seq !== head.seq || previous.hash !== head.hash) {
      const at = previous === undefined ? 0 : previous.seq;
      return broken(at + 1, head.id ?? 'the end of the log', `the log ends at entry ${at}, but its head records entry ${head.seq} (${short(head.hash)}): entries were removed from the end`);
    }
  }
  return { ok: true, entries: count, ...(first === undefined ? {} : { first }), ...(previous === undefined ? {} : { last: { seq: previous.seq, at: previous.at, hash: previous.hash } }) };
}

function short(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}

/**
 * Checks the log in Redis from its first entry to its head, and says how many ended rows' entries are still to come
 * (`pending`, when the caller can count them: a worker's catch-up appends them).
 */
export async function verifyStoredLog(audit: Pick<AuditLog, 'head' | 'entries'>, pending?: () => Promise<number>): Promise<AuditVerification> {
  const head = await audit.head();
  const result = await verifyAuditEntries(
    (async function* () {
      for await (const entry of audit.entries()) yield { raw: entry.raw, where: `stream id ${entry.id}` };
    })(),
    { fromStart: true, head },
  );
  return pending === undefined ? result : { ...result, pending: await pending() };
}
