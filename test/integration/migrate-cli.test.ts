import { describe, expect, it } from 'vitest';
import { runSeatflow as seatflow } from '../helpers/run-seatflow.js';

describe('seatflow migrate (CLI)', { timeout: 60_000 }, () => {
  it('prints a domain migration\'s plan as JSON: per user the new address and the calls planned, changing nothing', async () => {
    const { code, stdout, stderr } = await seatflow(['migrate', 'domain', '--from', 'acme.example', '--to', 'acme.io', '--users', 'jobs/examples/domain-migration-users.txt', '--validated-domains', 'acme.example', '--sim', '--json']);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as { migration: string; users: { email: string; newEmail: string; verdict: string; waitsForConfirmation: boolean; calls: { action: string; verdict: string }[] }[] };
    expect(plan.migration).toBe('domain');
    expect(plan.users.map((user) => [user.email, user.newEmail, user.verdict])).toEqual([
      ['dana.whitfield@acme.example', 'dana.whitfield@acme.io', 'change'],
      ['jordan.lee@acme.example', 'jordan.lee@acme.io', 'change'],
      ['noah.fischer@acme.example', 'noah.fischer@acme.io', 'change'],
      ['marcus.chen@acme.example', 'marcus.chen@acme.io', 'change'],
    ]);
    expect(plan.users[0]?.calls.map((call) => call.action)).toEqual(['add-alternate-email', 'make-alternate-email-primary']);
    expect(plan.users[0]?.waitsForConfirmation).toBe(true);
    expect(stderr).toContain('Dry run: nothing was changed');
  });

  it('with --apply --json --no-wait, prints the plan alone on stdout and says the queued batch on stderr', async () => {
    // Found by the whole-system simulation, which reads the plan a migration promised from stdout.
    const { code, stdout, stderr } = await seatflow(['migrate', 'columns', '--sheets', 'jobs/examples/column-migration-sheets.txt', '--spec', 'jobs/examples/column-standard.json', '--sim', '--apply', '--json', '--no-wait', '--yes']);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as { migration: string; sheets: { rows: { verdict: string }[] }[] };
    expect(plan.migration).toBe('columns');
    expect(plan.sheets.flatMap((sheet) => sheet.rows).some((row) => row.verdict === 'change')).toBe(true);
    expect(stderr).toMatch(/^Batch [0-9a-f]+ queued\. A running seatflow worker takes it/m);
  });

  it('refuses a request it cannot read, saying what to give, with exit code 2', async () => {
    const domain = await seatflow(['migrate', 'domain', '--from', 'https://acme.example', '--to', 'acme.io', '--sim']);
    expect(domain.code).toBe(2);
    expect(domain.stderr).toMatch(/--from is not a mail domain \(write it as acme\.io/);
    const none = await seatflow(['migrate', 'webhooks', '--sim']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing to do[\s\S]*--repoint FROM TO, --rotate-secrets --secrets-to FILE, --disable-unused DAYS/);
    const secrets = await seatflow(['migrate', 'webhooks', '--rotate-secrets', '--sim']);
    expect(secrets.stderr).toMatch(/--rotate-secrets needs --secrets-to FILE: the new secrets are written there and nowhere else/);
  });
});
