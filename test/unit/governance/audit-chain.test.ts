import { describe, expect, it } from 'vitest';
import { entryHash, GENESIS_HASH, sealEntry, type AuditEntry } from '../../../src/governance/audit/audit-entry.js';
import { auditExportLines, entriesWithin, parseAuditTime } from '../../../src/governance/audit/audit-export.js';
import { verifyAuditEntries } from '../../../src/governance/audit/verify-audit.js';
import { collect } from '../../helpers/collect.js';

/** A chain of `n` entries as the log would seal them. */
function chain(n: number): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (let seq = 1; seq <= n; seq += 1) {
    entries.push(
      sealEntry({
        seq,
        at: `2026-11-0${1 + (seq % 5)}T10:00:0${seq % 10}.000Z`,
        event: seq % 2 === 0 ? 'row.applied' : 'change.requested',
        actor: seq % 2 === 0 ? 'worker' : 'alice',
        subject: 'b0123456789ab',
        ...(seq % 2 === 0 ? {} : { reason: 'HR-1234' }),
        data: { row: seq, email: `user${seq}@acme.example`, outcome: 'succeeded' },
        prev: entries[seq - 2]?.hash ?? GENESIS_HASH,
      }),
    );
  }
  return entries;
}

async function* lines(entries: readonly (AuditEntry | string)[]) {
  let n = 0;
  for (const entry of entries) {
    n += 1;
    yield { raw: typeof entry === 'string' ? entry : JSON.stringify(entry), where: `line ${n}` };
  }
}

describe('the audit hash chain', () => {
  it('hashes an entry over the previous hash and its canonical JSON, whatever the order of its keys', () => {
    const [first] = chain(1);
    const { hash, ...body } = first!;
    const reordered = Object.fromEntries(Object.entries(body).reverse()) as typeof body;
    expect(entryHash(reordered)).toBe(hash);
    expect(entryHash({ ...body, prev: 'f'.repeat(64) })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies an intact chain from its start and against its head', async () => {
    const entries = chain(12);
    const last = entries[11]!;
    const result = await verifyAuditEntries(lines(entries), { fromStart: true, head: { seq: 12, hash: last.hash } });
    expect(result).toMatchObject({ ok: true, entries: 12, first: { seq: 1 }, last: { seq: 12, hash: last.hash } });
  });

  it('names the first entry whose content was changed after it was written', async () => {
    const entries = chain(8);
    const changed = { ...entries[4]!, data: { ...entries[4]!.data, email: 'someone.else@acme.example' } };
    const result = await verifyAuditEntries(lines([...entries.slice(0, 4), changed, ...entries.slice(5)]), { fromStart: true });
    expect(result.ok).toBe(false);
    expect(result.entries).toBe(4);
    expect(result.broken).toMatchObject({ seq: 5, where: 'line 5' });
    expect(result.broken?.problem).toMatch(/changed after it was written/);
  });

  it('finds a changed entry whose hash was recomputed to match: the next entry no longer chains to it', async () => {
    const entries = chain(6);
    const { hash: _old, ...body } = entries[2]!;
    const forged = sealEntry({ ...body, reason: 'nothing to see' });
    const result = await verifyAuditEntries(lines([...entries.slice(0, 2), forged, ...entries.slice(3)]), { fromStart: true });
    expect(result.broken).toMatchObject({ seq: 4 });
    expect(result.broken?.problem).toMatch(/prev hash .* is not the hash of the entry before it/);
  });

  it('finds an entry removed from the middle, and one removed from the end (by the head)', async () => {
    const entries = chain(6);
    const gap = await verifyAuditEntries(lines([...entries.slice(0, 3), ...entries.slice(4)]), { fromStart: true });
    expect(gap.broken).toMatchObject({ seq: 5 });
    expect(gap.broken?.problem).toMatch(/entries 4–4 are missing/);

    const truncated = await verifyAuditEntries(lines(entries.slice(0, 5)), { fromStart: true, head: { seq: 6, hash: entries[5]!.hash } });
    expect(truncated.ok).toBe(false);
    expect(truncated.broken?.problem).toMatch(/log ends at entry 5, but its head records entry 6/);
  });

  it('says an unreadable line is broken rather than failing', async () => {
    const entries = chain(3);
    const result = await verifyAuditEntries(lines([JSON.stringify(entries[0]), '{"seq": 2, "oops"', JSON.stringify(entries[2])]), { fromStart: true });
    expect(result.broken).toMatchObject({ seq: 2, where: 'line 2' });
  });

  it('checks a date range on its own: its first entry need not be the log\'s first', async () => {
    const entries = chain(10);
    expect(await verifyAuditEntries(lines(entries.slice(3, 7)), { fromStart: false })).toMatchObject({ ok: true, entries: 4, first: { seq: 4 } });
    expect((await verifyAuditEntries(lines(entries.slice(3, 7)), { fromStart: true })).ok).toBe(false);
  });
});

describe('audit exports', () => {
  const stored = (entries: AuditEntry[]) =>
    (async function* () {
      for (const entry of entries) yield { id: '1-0', raw: JSON.stringify(entry) };
    })();

  it('keeps entries whose time is within [from, to)', async () => {
    const entries = chain(10);
    const range = { fromMs: parseAuditTime('2026-11-02', '--from'), toMs: parseAuditTime('2026-11-04', '--to') };
    const kept = await collect(entriesWithin(stored(entries), range));
    expect(kept.length).toBeGreaterThan(0);
    for (const { entry } of kept) expect(entry.at >= '2026-11-02' && entry.at < '2026-11-04').toBe(true);
    expect(kept.length).toBe(entries.filter((entry) => entry.at >= '2026-11-02' && entry.at < '2026-11-04').length);
  });

  it('writes JSON Lines verbatim (so the export verifies) and CSV with formula-looking cells neutralised', async () => {
    const entries = chain(3);
    entries[1] = sealEntry({ ...entries[1]!, actor: '=HYPERLINK("x")', prev: entries[0]!.hash });
    const jsonl = (await collect(auditExportLines(entriesWithin(stored(entries), {}), 'jsonl'))).join('');
    expect(jsonl.trim().split('\n').map((line) => JSON.parse(line) as AuditEntry)).toEqual(entries);
    const csv = (await collect(auditExportLines(entriesWithin(stored(entries), {}), 'csv'))).join('');
    expect(csv.split('\n')[0]).toBe('seq,at,event,actor,subject,reason,data,prev,hash');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('refuses a time it cannot read', () => {
    expect(() => parseAuditTime('last tuesday', '--from')).toThrow(/--from "last tuesday" is not a date/);
    expect(parseAuditTime('2026-11-01', '--from')).toBe(Date.UTC(2026, 10, 1));
  });
});
