import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/manifest/action.js';
import { createClashChecker } from '../../../src/manifest/clash-checker.js';
import type { RowProblem } from '../../../src/manifest/manifest-row.js';

function check(actions: Action[]): { problems: RowProblem[]; comparisons: number } {
  const checker = createClashChecker();
  const problems = actions.flatMap((action, i) => checker.add(i + 1, i + 2, action));
  return { problems: [...problems, ...checker.finish()], comparisons: checker.comparisons() };
}

const discussions = (count: number): Action[] =>
  Array.from({ length: count }, (_, i) => ({ action: 'create-discussion', sheetId: 4_000_000_001, comment: `note ${i}` }) as Action);

describe('createClashChecker', () => {
  it('compares each of N rows on one key a bounded number of times, not with every earlier row', () => {
    const small = check(discussions(2_000));
    const large = check(discussions(8_000));
    expect(small.problems).toEqual([]);
    expect(large.problems).toEqual([]);
    // Pairwise, 8,000 rows on one sheet were 32 million comparisons; linear is a few per row.
    expect(large.comparisons).toBeLessThanOrEqual(4 * 8_000);
    expect(large.comparisons).toBeLessThanOrEqual(4.5 * small.comparisons);
  });

  it('still finds the repeat among many rows on one key, naming the first row it repeats', () => {
    const rows = [...discussions(5_000), { action: 'create-discussion', sheetId: 4_000_000_001, comment: 'note 1234' } as Action];
    expect(check(rows).problems).toEqual([{ row: 5_001, line: 5_002, message: 'repeats row 1235 (duplicate row)' }]);
  });

  it('reports, for any mix of rows, the earliest earlier row that the same two rows alone would clash on', () => {
    // The definition of a clash is pairwise; a file of many rows must report what its pairs say, in file order.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const users = ['a@acme.example', 'b@acme.example'];
    const addresses = ['x@acme.example', 'y@acme.example'];
    const make = (): Action => {
      const user = { email: users[random(users.length)]! };
      switch (random(12)) {
        case 0: return { action: 'deactivate', user };
        case 1: return { action: 'reactivate', user };
        case 2: return { action: 'remove', user };
        case 3: return { action: 'add', user: { email: user.email } } as Action;
        case 4: return { action: 'downgrade', user, seatType: random(2) === 0 ? 'VIEWER' : 'GUEST' } as Action;
        case 5: return { action: 'update', user, firstName: random(2) === 0 ? 'Ann' : 'Bo' } as Action;
        case 6: return { action: 'add-alternate-email', user, alternateEmail: addresses[random(2)]! };
        case 7: return { action: 'delete-alternate-email', user, alternateEmail: addresses[random(2)]! };
        case 8: return { action: 'make-alternate-email-primary', user, alternateEmail: addresses[random(2)]! } as Action;
        case 9: return { action: 'create-discussion', sheetId: 9, comment: random(2) === 0 ? 'hi' : 'bye' } as Action;
        case 10: return { action: 'update-column', sheetId: 9, columnTitle: 'Status', title: random(2) === 0 ? 'State' : 'Stage' } as Action;
        default: return { action: random(2) === 0 ? 'enable-webhook' : 'disable-webhook', webhookId: 5 } as Action;
      }
    };
    const pairVerdict = (earlier: Action, later: Action): string | undefined => check([earlier, later]).problems[0]?.message.replace(/row 1\b/, 'row #');
    for (let file = 0; file < 40; file += 1) {
      const actions = Array.from({ length: 30 }, make);
      const expected: RowProblem[] = [];
      actions.forEach((later, i) => {
        for (let j = 0; j < i; j += 1) {
          const verdict = pairVerdict(actions[j]!, later);
          if (verdict === undefined) continue;
          expected.push({ row: i + 1, line: i + 2, message: verdict.replace('row #', `row ${j + 1}`) });
          break;
        }
      });
      expect(check(actions).problems, `file ${file}`).toEqual(expected);
    }
  });

  it('refuses a transfer to a user the file removes or deactivates, whichever row of that user does it', () => {
    const boss = { email: 'boss@acme.example' };
    const rows: Action[] = [
      { action: 'remove', user: { email: 'a@acme.example' }, transferTo: boss } as Action,
      { action: 'update', user: boss, firstName: 'Pat' } as Action,
      { action: 'set-profile-image', user: boss, image: 'boss.png' } as Action,
      { action: 'deactivate', user: boss },
    ];
    expect(check(rows).problems).toEqual([{ row: 1, line: 2, field: 'transferTo', message: 'transferTo boss@acme.example is deactivated by row 4 of the same file' }]);
  });

  it('refuses a seat change beside a deactivation or reactivation of the same user, which moves the seat too', () => {
    // Run in parallel, a downgrade after the deactivation finds the seat already free: the plan's "change" would be
    // a call that changes nothing.
    const ann = { email: 'ann@acme.example' };
    const rows: Action[] = [
      { action: 'deactivate', user: ann },
      { action: 'downgrade', user: ann, seatType: 'CONTRIBUTOR' } as Action,
      { action: 'upgrade', user: { email: 'bo@acme.example' }, seatType: 'MEMBER' } as Action,
      { action: 'reactivate', user: { email: 'bo@acme.example' } },
    ];
    const reason = 'rows run in parallel, so put one of them in a later batch; deactivation and reactivation change the seat too';
    expect(check(rows).problems).toEqual([
      { row: 2, line: 3, message: `contradicts row 1 (deactivate): ${reason}` },
      { row: 4, line: 5, message: `contradicts row 3 (upgrade): ${reason}` },
    ]);
  });
});
