import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { notifyOverdueSteps } from '../../../src/governance/notifications/overdue-steps.js';
import type { Notifier } from '../../../src/governance/notifications/notification-event.js';
import type { StepJobData } from '../../../src/workflow/step-job.js';

const NOW = Date.parse('2026-11-24T09:00:00Z');

/** The target's one step queue, as the look reads it: jobs of every lifecycle. */
function queueOf(steps: StepJobData[]): Queue<StepJobData> {
  return { getJobs: async () => steps.map((data) => ({ id: `${data.workflowId}-${data.row}-${data.step}`, data })) } as unknown as Queue<StepJobData>;
}

describe('overdue steps', () => {
  it('names the lifecycle of each step nobody took (an offboarding, the sync\'s joiners or movers) and where to see it', async () => {
    const told: Parameters<Notifier['notify']>[0][] = [];
    const notifier: Notifier = { notify: async (event) => void told.push(event) };
    const late = NOW - 30 * 60_000;
    const queue = queueOf([
      { workflowId: 'o0123456789ab', row: 3, step: 'deactivate', dueAt: late },
      { workflowId: 'j0123456789ab', row: 2, step: 'join', dueAt: late },
      { workflowId: 'm0123456789ab', row: 1, step: 'move', dueAt: late },
      { workflowId: 'j0123456789ab', row: 5, step: 'join', dueAt: NOW + 86_400_000 },
    ]);
    expect(await notifyOverdueSteps(queue, notifier, { nowMs: NOW, graceMs: 10 * 60_000, target: 'https://api.smartsheet.com/2.0', sim: false })).toBe(3);
    expect(told.map((event) => [event.title, event.path])).toEqual([
      ['Offboarding step not taken: deactivate of row 3 (o0123456789ab)', '/offboardings/o0123456789ab'],
      ['Joiners step not taken: join of row 2 (j0123456789ab)', '/upcoming'],
      ['Movers step not taken: move of row 1 (m0123456789ab)', '/upcoming'],
    ]);
    expect(told[1]?.text).toContain('The join step of person row 2 of joiners workflow j0123456789ab was due at 2026-11-24T08:30:00.000Z, 30 min ago');
  });
});
