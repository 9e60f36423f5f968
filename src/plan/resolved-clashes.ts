import type { Action } from '../manifest/action.js';
import { createClashChecker } from '../manifest/clash-checker.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { findUser, type KnownUsers } from './preflight-facts.js';
import { RULES, type PlannedRow } from './planned-row.js';

export interface ResolvedClashes {
  /**
   * Marks `row` (just classified, rows in file order) a conflict when it clashes with an earlier row on the same
   * resolved user. A row the service does not know (not-found) names nobody and is left as it is.
   */
  check(row: PlannedRow): void;
  /**
   * The conflicts only visible once every row was checked (a transfer target a later row removes), the first of each
   * row by row number, for `markConflict`.
   */
  finish(): Map<number, RowProblem>;
}

/**
 * Rows that name one user differently (e-mail in one, id in another) clash only once both are resolved: the
 * manifest's whole-file checks, again on the users the pre-flight resolved.
 */
export function createResolvedClashes(known: KnownUsers): ResolvedClashes {
  const keyOf = (action: Action): string | undefined => {
    if (!('user' in action)) return undefined;
    const user = findUser(known, action.user);
    return user === undefined ? undefined : `u:${user.id}`;
  };
  const checker = createClashChecker({
    keyOf,
    transferKeyOf: (action) => {
      if (action.action !== 'remove' || action.transferTo === undefined) return undefined;
      const heir = findUser(known, action.transferTo);
      return heir === undefined ? undefined : `u:${heir.id}`;
    },
  });
  return {
    check(row) {
      if (row.action === undefined || row.verdict === 'not-found') return;
      for (const problem of checker.add(row.row, row.line, row.action)) markConflict(row, problem);
    },
    finish() {
      const late = new Map<number, RowProblem>();
      // finish() may name every row of the file (each hands over to a user it removes): never spread it into arguments.
      for (const problem of checker.finish()) if (!late.has(problem.row)) late.set(problem.row, problem);
      return late;
    },
  };
}

/** A row's conflict with another row, unless the row is a conflict already (its first reason stands). */
export function markConflict(row: PlannedRow, problem: RowProblem): void {
  if (row.verdict === 'conflict') return;
  row.verdict = 'conflict';
  row.rule = problem.field === 'transferTo' ? RULES.transferTargetRemoved : problem.message.startsWith('repeats') ? RULES.duplicate : RULES.contradictory;
  row.reason = problem.message;
}
