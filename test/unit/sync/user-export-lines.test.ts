import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveUser } from '../../../src/sync/live-user.js';
import { USER_EXPORT_FIELDS } from '../../../src/sync/user-export-fields.js';
import { userExportLines } from '../../../src/sync/user-export-lines.js';
import { readUserSnapshot } from '../../../src/sync/user-snapshot.js';

const MAIN = 5420192837465012;
const LABS = 5420192837465013;

const users: LiveUser[] = [
  {
    id: 1001,
    email: 'noah.fischer@acme.example',
    name: 'Noah Fischer',
    status: 'ACTIVE',
    admin: false,
    groupAdmin: true,
    seats: [
      { planId: MAIN, seatType: 'MEMBER', isInternal: true },
      { planId: LABS, seatType: 'PROVISIONAL_MEMBER', isInternal: true, provisionalExpirationDate: '2026-12-01T00:00:00Z' },
    ],
    lastLogin: '2026-11-20T08:00:00Z',
    groupsOwned: 'unknown',
    alternateEmails: [{ id: 9001, email: 'noah.f@acme.example', confirmed: true }],
  },
  {
    id: 1002,
    email: 'mallory@acme.example',
    name: '=HYPERLINK("http://evil.example")',
    unrecognized: [{ field: 'status', value: 'ON_LEAVE' }],
    seats: [{ planId: MAIN, unrecognized: [{ field: 'seatType', value: 'SUPER_SEAT' }] }],
    groupsOwned: [{ id: 77, name: '+Ops' }],
    alternateEmails: 'unknown',
  },
];

async function* stream(): AsyncGenerator<LiveUser> {
  yield* users;
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seatflow-export-lines-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('userExportLines (CSV)', () => {
  it('writes the chosen columns, one value per plan in seat columns, and the seat type the service sent even when unknown', async () => {
    const csv = await text(userExportLines(stream(), ['email', 'status', 'planId', 'seatType', 'provisionalExpirationDate', 'groupsOwned', 'alternateEmails', 'unrecognized'], 'csv'));
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toEqual({
      email: 'noah.fischer@acme.example',
      status: 'ACTIVE',
      planId: `${MAIN}; ${LABS}`,
      seatType: 'MEMBER; PROVISIONAL_MEMBER',
      provisionalExpirationDate: '; 2026-12-01T00:00:00Z',
      groupsOwned: 'unknown',
      alternateEmails: 'noah.f@acme.example',
      unrecognized: '',
    });
    expect(rows[1]).toMatchObject({ status: 'ON_LEAVE', seatType: 'SUPER_SEAT', alternateEmails: 'unknown', unrecognized: 'status "ON_LEAVE", seatType "SUPER_SEAT"' });
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const csv = await text(userExportLines(stream(), ['name', 'groupsOwned'], 'csv'));
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows[1]).toEqual({ name: `'=HYPERLINK("http://evil.example")`, groupsOwned: "'+Ops" });
  });
});

describe('userExportLines (JSON Lines) and readUserSnapshot', () => {
  it('nests seat fields under seats, writes null for no value, and reads back into the same users', async () => {
    const jsonl = await text(userExportLines(stream(), [...USER_EXPORT_FIELDS], 'jsonl'));
    const first = JSON.parse(jsonl.split('\n')[0]!) as Record<string, unknown>;
    expect(first.seats).toEqual([
      { planId: MAIN, seatType: 'MEMBER', isInternal: true, provisionalExpirationDate: null, seatTypeLastChangedAt: null },
      { planId: LABS, seatType: 'PROVISIONAL_MEMBER', isInternal: true, provisionalExpirationDate: '2026-12-01T00:00:00Z', seatTypeLastChangedAt: null },
    ]);
    expect(first).toMatchObject({ firstName: null, resourceViewer: null, groupsOwned: 'unknown' });
    const file = path.join(dir, 'snapshot.jsonl');
    await writeFile(file, jsonl);
    const read: LiveUser[] = [];
    for await (const user of readUserSnapshot(file)) read.push(user);
    expect(read).toEqual(users);
  });

  it('refuses a line that is not an exported user, naming the line', async () => {
    const file = path.join(dir, 'broken.jsonl');
    await writeFile(file, '{"id": 1, "email": "a@acme.example", "seats": []}\n\n{"email": "b@acme.example"}\n');
    const read = async () => {
      for await (const user of readUserSnapshot(file)) void user;
    };
    await expect(read()).rejects.toThrow(/line 3 is not an exported user: id/);
    await expect((async () => {
      for await (const user of readUserSnapshot(path.join(dir, 'missing.jsonl'))) void user;
    })()).rejects.toThrow(/does not exist/);
  });
});
