import { describe, expect, it } from 'vitest';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

const userOf = (h: BatchHarness, email: string) => {
  const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
  if (user === undefined) throw new Error(`no ${email} in the demo organization`);
  return user;
};

/** Moves a user to a free seat the way an admin would, through the API: licensedSheetCreator stays as it was. */
async function downgradeToContributor(h: BatchHarness, email: string): Promise<void> {
  const user = userOf(h, email);
  await h.api.users.downgrade(user.id, user.seats[0]!.planId, { seatType: 'CONTRIBUTOR' });
  expect(userOf(h, email).licensedSheetCreator).toBe(true);
}

describe('the removal pre-flight, one module for plan/run and offboard', () => {
  it('gives the same verdict, rule and reason for the same user and transfer target on both paths', async () => {
    const { h, o } = await open();
    const [leaver, freeSeat] = await h.deactivatableEmails(2);
    await downgradeToContributor(h, freeSeat!);
    const cases: [who: string, target: string][] = [
      ['priya.shah@acme.example', ''], // owns a group, nobody takes it
      [leaver!, ''], // owns none: removed, sheets stay
      [leaver!, 'casey.nguyen@acme.example'], // a VIEWER/CONTRIBUTOR seat
      [leaver!, freeSeat!], // downgraded to a free seat, licensedSheetCreator still true
      [leaver!, 'taylor.brooks@acme.example'], // deactivated
      [leaver!, 'nobody@acme.example'], // not a user
      ['priya.shah@acme.example', 'jordan.lee@acme.example'], // not a group admin, and there is a group
      ['priya.shah@acme.example', 'dana.whitfield@acme.example'], // a group admin on a paid seat
    ];
    let files = 0;
    for (const [who, target] of cases) {
      files += 1;
      const manifest = h.writeManifest(`remove-${files}.csv`, ['email,action,transferTo,transferSheets', `${who},remove,${target},${target === '' ? '' : 'true'}`]);
      const row = (await h.plan(manifest)).rows.at(0)!;
      const planned = (await o.plan(['email,transferTo', `${who},${target}`])).leavers[0]!;
      const onPlan = row.verdict === 'refused' ? { refused: true, rule: row.rule, why: row.reason } : { refused: false, rule: undefined, why: row.reason };
      const onOffboard = planned.verdict === 'refused' ? { refused: true, rule: planned.rule, why: planned.reason } : { refused: false, rule: undefined, why: planned.notes.join('; ') || undefined };
      expect({ who, target, ...onOffboard }).toEqual({ who, target, ...onPlan });
    }
  });
});

describe('the re-check before removal (issue 23 item 4)', () => {
  it('judges the transfer target by its seat: one moved to a free seat during the hold receives nothing', async () => {
    const { h, o } = await open();
    const [leaver, heir] = await h.deactivatableEmails(2);
    const workflow = await o.offboard(['email,transferTo', `${leaver},${heir}`]);
    expect((await o.system.status(workflow.id))?.leavers[0]?.phase).toBe('scheduled');
    o.startWorkers();
    await o.waitFor(async () => (await o.leaver(workflow.id, leaver!)).phase === 'holding');
    await downgradeToContributor(h, heir!);
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    const state = await o.leaver(workflow.id, leaver!);
    expect(state.phase).toBe('failed');
    const removal = await h.system.store.getOutcome(workflow.removeBatch, state.row);
    expect(removal?.message).toMatch(new RegExp(`transfer target ${heir!.replace(/\./g, '\\.')} is not licensed \\(a CONTRIBUTOR seat: cannot own sheets\\) and no --transfer-to fallback was given`));
    expect(await o.changesOf(leaver!)).toEqual(['deactivateUser']);
  });
});
