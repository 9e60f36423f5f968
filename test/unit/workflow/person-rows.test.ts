import { describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../../src/queue/row-outcome.js';
import { changedEarly, describeRows, type PersonRow } from '../../../src/workflow/person-rows.js';

const DUE = Date.parse('2030-03-02T00:00:00Z');

function deactivated(fields: Partial<RowOutcome>): PersonRow {
  const outcome = { batchId: 'o1-deactivate', row: 1, action: 'deactivate', email: 'kofi.mensah@acme.example', outcome: 'succeeded', attempts: 1, finishedAt: '2030-03-02T00:00:05Z', ...fields } as RowOutcome;
  return { batchId: 'o1-deactivate', action: 'deactivate', state: 'ended', dueAt: DUE, outcome };
}

describe('a change made before its due instant', () => {
  it('is judged on the service clock the row began on, not on the Redis clock it finished on', () => {
    // Redis's clock is an hour behind the service's: finished "before" the due instant, begun after it.
    const onTime = deactivated({ finishedAt: '2030-03-01T23:00:05Z', startedOnServiceClock: '2030-03-02T00:00:01Z' });
    expect(changedEarly(onTime)).toBe(false);
    expect(describeRows([onTime])).toEqual([]);
    // Begun on the service clock a day early: said, with that instant.
    const early = deactivated({ finishedAt: '2030-03-02T00:00:05Z', startedOnServiceClock: '2030-03-01T00:00:00.000Z' });
    expect(changedEarly(early)).toBe(true);
    expect(describeRows([early])).toEqual(['deactivate was made at 2030-03-01T00:00:00.000Z, before its due instant 2030-03-02T00:00:00.000Z']);
  });

  it('falls back to when an older outcome finished, and never flags a row that changed nothing', () => {
    expect(changedEarly(deactivated({ finishedAt: '2030-03-01T12:00:00Z' }))).toBe(true);
    expect(changedEarly(deactivated({ finishedAt: '2030-03-01T12:00:00Z', outcome: 'failed' }))).toBe(false);
  });
});
