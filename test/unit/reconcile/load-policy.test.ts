import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/seatflow-error.js';
import { loadPolicy } from '../../../src/reconcile/load-policy.js';
import { useTempDirs } from '../../helpers/temp-dirs.js';

const tempDir = useTempDirs();
function write(files: Record<string, string>): string {
  const dir = tempDir('sf-policy-');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return path.join(dir, 'policy.json');
}

const refusal = async (file: string) => {
  const error = await loadPolicy(file).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
};

describe('loadPolicy', () => {
  it('reads the policy and its source-of-truth file (relative to the policy), hashes the policy, defaults exclusions', async () => {
    const file = write({
      'policy.json': JSON.stringify({ planId: '5420192837465012', rules: [{ when: { inFile: 'hr.csv' }, then: { seatFromColumn: 'Seat' } }] }),
      'hr.csv': '\uFEFFEmail,Seat\r\nAda@Acme.example,viewer\r\n',
    });
    const loaded = await loadPolicy(file);
    expect(loaded.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(loaded.policy.planId).toBe(5420192837465012);
    expect(loaded.policy.exclude).toEqual({ admins: true, emails: [], domains: [] });
    expect(loaded.files.get('hr.csv')?.get('ada@acme.example')).toMatchObject({ seat: 'viewer' });
  });

  it('refuses unknown keys, an empty rule list, a rule without conditions and seatFromColumn without inFile, naming the field', async () => {
    expect(await refusal(write({ 'policy.json': JSON.stringify({ rules: [], planid: 1 }) }))).toMatch(/unrecognized key.*planid|rules: a policy needs at least one rule/i);
    expect(await refusal(write({ 'policy.json': JSON.stringify({ rules: [{ when: {}, then: { seat: 'CONTRIBUTOR' } }] }) }))).toContain('rules.0.when: a rule needs at least one condition');
    expect(await refusal(write({ 'policy.json': JSON.stringify({ rules: [{ when: { seat: 'MEMBER' }, then: { seatFromColumn: 'seat' } }] }) }))).toContain('add "inFile"');
    expect(await refusal(write({ 'policy.json': JSON.stringify({ rules: [{ when: { seat: 'MEMBER' }, then: { seat: 'OWNER' } }] }) }))).toContain('rules.0.then');
  });

  it('refuses a policy that is not JSON, and a missing source-of-truth file', async () => {
    expect(await refusal(write({ 'policy.json': '{"rules": [' }))).toContain('not valid JSON');
    expect(await refusal(write({ 'policy.json': JSON.stringify({ rules: [{ when: { inFile: 'gone.csv' }, then: { seat: 'MEMBER' } }] }) }))).toContain('gone.csv');
  });

  it('refuses a source-of-truth file with a bad seat, a bad e-mail, a repeated person or no email column, with the line', async () => {
    const policy = JSON.stringify({ rules: [{ when: { inFile: 'hr.csv' }, then: { seatFromColumn: 'seat' } }] });
    expect(await refusal(write({ 'policy.json': policy, 'hr.csv': 'email,seat\na@acme.example,MEMBER\nb@acme.example,OWNER\n' }))).toContain('line 3 (b@acme.example): "OWNER" is not a seat');
    expect(await refusal(write({ 'policy.json': policy, 'hr.csv': 'email,seat\nnot-an-address,MEMBER\n' }))).toContain('line 2');
    expect(await refusal(write({ 'policy.json': policy, 'hr.csv': 'email,seat,note\na@acme.example,MEMBER,"two\nlines"\n\nb@acme.example,boss,\n' }))).toContain('line 5 (b@acme.example)');
    expect(await refusal(write({ 'policy.json': policy, 'hr.csv': 'email,seat\na@acme.example,MEMBER\nA@acme.example,GUEST\n' }))).toContain('listed twice');
    expect(await refusal(write({ 'policy.json': policy, 'hr.csv': 'person,seat\na@acme.example,MEMBER\n' }))).toContain('no "email" column');
  });

  it('accepts the example policy of jobs/examples', async () => {
    const loaded = await loadPolicy('jobs/examples/license-policy.json');
    expect(loaded.policy.rules).toHaveLength(3);
    expect(loaded.files.has('hr-seats.csv')).toBe(true);
  });

  it('reads source-of-truth files with the vocabulary of every input: e-mail spellings, the seat column by its folded name', async () => {
    const policy = JSON.stringify({ rules: [{ when: { inFile: 'hr.csv' }, then: { seatFromColumn: 'seat type' } }] });
    const loaded = await loadPolicy(write({ 'policy.json': policy, 'hr.csv': 'Work E-Mail;Seat_Type;Team\nAda@Acme.example;guest;Data\n' }));
    expect(loaded.files.get('hr.csv')?.get('ada@acme.example')).toMatchObject({ seattype: 'guest' });
    expect(await refusal(write({ 'policy.json': policy, 'hr.csv': 'Emial,Seat Type\na@acme.example,MEMBER\n' }))).toContain('source-of-truth file "hr.csv": column "Emial" is not a field of a source-of-truth file: did you mean "email"?');
  });

  it('refuses a column no rule reads that holds e-mails or dates, unless the policy lists it in ignoreColumns', async () => {
    const policy = (extra: object) => JSON.stringify({ rules: [{ when: { notInFile: 'roster.csv' }, then: { seat: 'CONTRIBUTOR' } }], ...extra });
    const roster = 'email,Manager,Contract End\na@acme.example,boss@acme.example,2026-12-31\n';
    expect(await refusal(write({ 'policy.json': policy({}), 'roster.csv': roster }))).toMatch(/source-of-truth file "roster.csv": column "Manager" holds e-mail addresses/);
    expect(await refusal(write({ 'policy.json': policy({ ignoreColumns: ['Manager'] }), 'roster.csv': roster }))).toMatch(/column "Contract End" holds dates/);
    const loaded = await loadPolicy(write({ 'policy.json': policy({ ignoreColumns: ['manager', 'Contract End'] }), 'roster.csv': roster }));
    expect([...loaded.files.get('roster.csv')!.keys()]).toEqual(['a@acme.example']);
  });
});
