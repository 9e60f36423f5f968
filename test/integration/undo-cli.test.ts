import { afterEach, describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { seatflowProcesses, type SeatflowProcesses } from '../helpers/seatflow-processes.js';

const batches = useBatchHarnesses();
let processes: SeatflowProcesses | undefined;
afterEach(async () => {
  await processes?.stop();
  processes = undefined;
});

function userOf(h: BatchHarness, email: string) {
  const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
  if (user === undefined) throw new Error(`no user ${email}`);
  return user;
}

describe('seatflow undo (CLI)', () => {
  it('says per leaver what it did and what the reactivation cost, gives back a seat lower than MEMBER, and exits 0 when all was already undone', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const run = (processes = seatflowProcesses(h, batches.redis().url)).run;
    const [contributor, member] = await h.deactivatableEmails(2);
    const planId = userOf(h, contributor!).seats[0]!.planId;
    userOf(h, contributor!).seats[0]!.seatType = 'VIEWER';
    userOf(h, member!).seats[0]!.seatType = 'MEMBER';
    const file = h.writeManifest('leavers.csv', ['email,transferTo', `${contributor},dana.whitfield@acme.example`, `${member},dana.whitfield@acme.example`]);
    const offboarded = await run(['offboard', file, '--yes']);
    expect(offboarded.code, offboarded.stderr).toBe(0);
    const id = /Offboarding (o[0-9a-f]{12}) queued/.exec(offboarded.stdout)![1]!;
    // The service takes the Member seat away on deactivation and assigns one on reactivation (docs/service.md):
    // stand in for it here, whatever this reference server does, so that the reactivation leaves a Member seat.
    userOf(h, contributor!).seats[0]!.seatType = 'MEMBER';

    const undone = await run(['undo', id]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain(`${contributor}: undone: removal cancelled; reactivation succeeded`);
    expect(undone.stdout).toContain(`seat: reactivation assigns a Member seat (paid); the user held CONTRIBUTOR in plan ${planId} before, so a downgrade back to CONTRIBUTOR follows it; seat restore succeeded`);
    expect(undone.stdout).toContain('seat: reactivation assigns a Member seat (paid): the seat the user held before');
    expect(undone.stdout).toContain('2 undone, 0 already undone before, 0 not undone.');
    expect(userOf(h, contributor!).seats[0]!.seatType).toBe('VIEWER');
    expect(userOf(h, member!).seats[0]!.seatType).toBe('MEMBER');
    const operations = (await h.mutations()).filter((m) => m.userId === userOf(h, contributor!).id).map((m) => m.operation);
    expect(operations).toEqual(['deactivateUser', 'reactivateUser', 'downgradeUser']);

    // Before: a second undo of one leaver was "NOT undone: already undone …" and exit 1.
    const again = await run(['undo', id, '--user', contributor!]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain(`${contributor}: nothing to do: already undone by`);
    expect(again.stdout).toContain('Nothing to undo: it was already undone.');
    const all = await run(['undo', id]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(`${member}: nothing to do: already undone by`);
    expect(all.stdout).toContain('Nothing to undo: all 2 were already undone.');
  }, 120_000);
});
