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

async function moveClock(h: BatchHarness, body: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${h.server.origin}/_sim/clock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the service's clock: rehearsing next week by moving the reference server's clock", () => {
  it('a running seatflow worker removes at the end of the hold on the moved clock; seatflow steps lists the steps and steps run ends a hold early', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const run = (processes = seatflowProcesses(h, batches.redis().url)).run;
    const [first, second] = await h.deactivatableEmails(2);
    const file = h.writeManifest('leavers.csv', ['email,transferTo', `${first},dana.whitfield@acme.example`, `${second},dana.whitfield@acme.example`]);
    const offboarded = await run(['offboard', file, '--hold', '3d', '--yes']);
    expect(offboarded.code, offboarded.stderr).toBe(0);
    const id = /Offboarding (o[0-9a-f]{12}) queued/.exec(offboarded.stdout)![1]!;

    const listed = await run(['steps', id]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("(the reference server's clock, in step with this machine)");
    // A hold of 3d that began moments ago: shown rounded, as "in 3d 0h".
    expect(listed.stdout).toMatch(new RegExp(`in 3d 0h\\s+remove\\s+${first!.replace(/\./g, '\\.')}.*holding\\s+waiting for its time`));

    // Ending one hold early: asked first, then done by a worker (here: in the command's own process).
    const refused = await run(['steps', 'run', id, '--user', first!]);
    expect(refused.code).toBe(2);
    const early = await run(['steps', 'run', id, '--user', first!, '--yes', '--by', 'ops']);
    expect(early.code, early.stderr).toBe(0);
    expect(early.stdout).toContain(`${first}: remove runs now: remove run now by ops`);
    expect(early.stdout).toContain(`${first}: now removed`);
    expect((await h.mutations()).filter((m) => m.operation === 'removeUser')).toHaveLength(1);

    // Next week, without faketime: the worker takes the removal due on the service's clock.
    processes.worker();
    await moveClock(h, { advanceDays: 4 });
    const due = await run(['steps', '--due']);
    expect(due.stdout).toContain("(the reference server's clock, 4d 0h ahead of this machine)");
    await until(async () => (await h.mutations()).filter((m) => m.operation === 'removeUser').length === 2);
    await until(async () => (await run(['steps', id])).stdout.includes(`No steps to come in offboarding ${id}.`));
    const status = await run(['status', id]);
    expect(status.stdout).toMatch(/2 removed/);
  }, 180_000);

  it('reconciliation measures last-login ages on the service clock', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const run = (processes = seatflowProcesses(h, batches.redis().url)).run;
    const changes = (stdout: string) => Number(/(\d+) need a seat change/.exec(stdout)?.[1]);
    const today = await run(['reconcile', 'jobs/examples/license-policy.json']);
    expect(today.code, today.stderr).toBe(0);
    await moveClock(h, { advanceDays: 365 });
    const nextYear = await run(['reconcile', 'jobs/examples/license-policy.json']);
    expect(nextYear.code, nextYear.stderr).toBe(0);
    // A year on, every member who logged in at all last did so more than 90 days ago.
    expect(changes(nextYear.stdout)).toBeGreaterThan(changes(today.stdout));
  }, 120_000);
});
