import type { PlannedRow } from '../plan/planned-row.js';
import type { PlannedMigration } from './plan-migration.js';

/** One planned row as machines read it: what will be called, on what, and the verdict with its reason and code. */
function rowJson(row: PlannedRow): Record<string, unknown> {
  const { action } = row;
  return {
    row: row.row,
    action: row.actionName,
    verdict: row.verdict,
    ...(row.reason === undefined ? {} : { reason: row.reason }),
    ...(row.rule === undefined ? {} : { rule: row.rule }),
    ...(row.errorCode === undefined ? {} : { errorCode: row.errorCode }),
    ...(action === undefined ? {} : { call: action }),
  };
}

/**
 * The plan of a migration as JSON (`seatflow migrate … --json`): what each user, sheet or webhook will get, so a
 * program (the whole-system simulation's oracle) can hold the service's mutation log against it. Domain: per user the
 * new address and the calls planned for them (add, make primary, remove old) with the verdict of each. Columns: per
 * sheet its rows, and the columns whose cells a type change converts. Webhooks: per webhook its row.
 */
export function migrationJson(planned: PlannedMigration, target: string): Record<string, unknown> {
  const { plan } = planned;
  const common = {
    migration: planned.kind,
    target,
    title: plan.source.path,
    sha256: plan.source.sha256,
    summary: plan.summary,
    guardrails: planned.guardrails.reasons,
    notes: plan.notes ?? [],
    apiCalls: plan.apiCalls,
  };
  const rows = Array.from(plan.rows);
  if (planned.domain !== undefined) {
    const { domain } = planned;
    return {
      ...common,
      from: domain.request.from,
      to: domain.request.to,
      oldAddress: domain.request.oldAddress,
      confirmWithinDays: domain.request.confirmWithinDays,
      users: domain.moves.map((move) => ({
        row: move.row,
        userId: move.userId,
        email: move.email,
        newEmail: move.newEmail,
        verdict: move.verdict,
        ...(move.reason === undefined ? {} : { reason: move.reason }),
        ...(move.rule === undefined ? {} : { rule: move.rule }),
        ...(move.errorCode === undefined ? {} : { errorCode: move.errorCode }),
        newAddress: move.newAddress,
        waitsForConfirmation: move.waits,
        calls: rows.filter((row) => row.target.userId !== undefined && row.target.userId === move.userId).map(rowJson),
      })),
    };
  }
  if (planned.kind === 'columns') {
    const sheets = new Map<number, Record<string, unknown>[]>();
    for (const row of rows) {
      const sheetId = row.action !== undefined && 'sheetId' in row.action ? row.action.sheetId : 0;
      sheets.set(sheetId, [...(sheets.get(sheetId) ?? []), { ...rowJson(row), ...(row.target.columnId === undefined ? {} : { columnId: row.target.columnId }) }]);
    }
    return {
      ...common,
      sheets: [...sheets].map(([sheetId, sheetRows]) => ({ sheetId, rows: sheetRows, conversions: (planned.conversions ?? []).filter((each) => each.sheetId === sheetId) })),
    };
  }
  return { ...common, webhooks: rows.map((row) => ({ webhookId: row.target.webhookId, ...rowJson(row) })) };
}
