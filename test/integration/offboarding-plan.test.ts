import { describe, expect, it } from 'vitest';
import { ManifestRefusedError } from '../../src/plan/manifest-refused-error.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('offboarding plan', () => {
  it('gives each leaver a verdict before anything is queued', async () => {
    const { h, o } = await open();
    const [a, b] = await h.deactivatableEmails(2);
    const future = new Date(o.clock.now() + 5 * DAY).toISOString();
    const plan = await o.plan([
      'email,leaveDate,transferTo',
      `${a},${future},`,
      `${b},,casey.nguyen@acme.example`,
      'priya.shah@acme.example,,',
      'taylor.brooks@acme.example,,',
      'sam.taylor@gmail.com,,',
      'nobody@acme.example,,',
      'admin@acme.example,,',
      'marcus.chen@acme.example,,jordan.lee@acme.example',
      'jordan.lee@acme.example,,',
    ]);
    const verdicts = Object.fromEntries(plan.leavers.map((l) => [l.email, [l.verdict, l.rule]]));
    expect(verdicts[a!]).toEqual(['deactivate-on-date', undefined]);
    expect(plan.leavers.find((l) => l.email === a)?.leaveAt).toBe(Date.parse(future));
    expect(verdicts[b!]).toEqual(['refused', 'transfer-target-invalid']);
    expect(plan.leavers.find((l) => l.email === b)?.reason).toMatch(/casey.nguyen@acme.example is not licensed/);
    // Owns a group and nobody takes it over: refused now, not when the removal runs.
    expect(verdicts['priya.shah@acme.example']).toEqual(['refused', 'owns-groups-without-transferTo']);
    expect(verdicts['taylor.brooks@acme.example']).toEqual(['already-deactivated', undefined]);
    expect(verdicts['sam.taylor@gmail.com']).toEqual(['refused', 'isp-domain']);
    expect(verdicts['nobody@acme.example']?.[0]).toBe('refused');
    expect(verdicts['admin@acme.example']).toEqual(['refused', 'own-account']);
    // A transfer target who leaves in the same file cannot take over.
    expect(verdicts['marcus.chen@acme.example']).toEqual(['refused', 'transfer-target-invalid']);
    expect(plan.leavers.find((l) => l.email === 'marcus.chen@acme.example')?.reason).toMatch(/leaving too \(this file, row 9\)/);
    expect(verdicts['jordan.lee@acme.example']).toEqual(['deactivate-now', undefined]);
  });

  it('refuses a transfer target who is leaving in another open offboarding, and a leaver already leaving', async () => {
    const { h, o } = await open();
    const [a, b] = await h.deactivatableEmails(2);
    await o.offboard(['email', a!]);
    const plan = await o.plan(['email,transferTo', `${b},${a}`]);
    expect(plan.leavers[0]?.reason).toMatch(/leaving too \(offboarding o\w+ row 1\)/);
    // Another offboarding of the same leaver (another hold): refused.
    const another = await o.plan(['email', a!], { holdMs: 2 * DAY });
    expect(another.leavers[0]).toMatchObject({ verdict: 'refused', rule: 'already-leaving' });
    // The same file with the same options is the same offboarding: planned again, it finds its own leaver.
    const same = await o.plan(['email', a!]);
    expect(same.leavers[0]?.verdict).not.toBe('refused');
    expect((await o.system.submit(same)).created).toBe(false);
  });

  it('finds the same offboarding when the same plan is submitted again: nothing queued twice', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const plan = await o.plan(['email', a!]);
    const first = await o.system.submit(plan);
    const again = await o.system.submit(plan);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, workflow: { id: first.workflow.id } });
    expect(await o.system.context.stepQueue.getJobCounts('delayed', 'wait')).toEqual({ delayed: 0, wait: 1 });
  });

  it('refuses a hold longer than the reactivation window', async () => {
    const { o } = await open();
    await expect(o.plan(['email', 'jordan.lee@acme.example'], { holdMs: 8 * DAY })).rejects.toThrow(/longer than the reactivation window \(7 days\)/);
  });

  it('refuses a file with bad rows whole, naming each problem', async () => {
    const { o } = await open();
    const error = await o.plan(['email,leaveDate,transferTo', 'not-an-email,,', 'jordan.lee@acme.example,2026-12-04,', 'marcus.chen@acme.example,,marcus.chen@acme.example', 'jordan.lee@acme.example,,']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManifestRefusedError);
    const messages = (error as ManifestRefusedError).problems.map((p) => `${p.row}:${p.field}:${p.message}`);
    expect(messages).toEqual([
      '1:email:"not-an-email" is not a valid e-mail address',
      expect.stringMatching(/^2:leaveDate:"2026-12-04" has no time zone: pass --tz/),
      '3:transferTo:the transfer target is the leaver',
      '4:email:jordan.lee@acme.example is already a leaver in row 2',
    ]);
  });
});
