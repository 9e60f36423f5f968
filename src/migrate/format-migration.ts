import { plural } from '../core/plural.js';
import { printable } from '../core/printable.js';
import { formatPlan, type FormatPlanOptions } from '../plan/format-plan.js';
import type { PlannedMigration } from './plan-migration.js';

/** What the migration will do, in a few lines above its rows. */
export function migrationHeadline(planned: PlannedMigration): string[] {
  const { plan } = planned;
  if (planned.domain !== undefined) {
    const { summary, request } = planned.domain;
    const refused = planned.domain.moves.filter((move) => ['refused', 'conflict', 'not-found'].includes(move.verdict));
    const codes = new Map<string, number>();
    for (const move of refused) {
      const key = move.errorCode === undefined ? (move.rule ?? move.verdict) : String(move.errorCode);
      codes.set(key, (codes.get(key) ?? 0) + 1);
    }
    return [
      `Domain migration ${request.from} → ${request.to}${request.usersFile === undefined ? '' : ` (users of ${printable(request.usersFile)})`}: ${plural(summary.users, 'user')}`,
      `  ${summary.migrate} to migrate${summary.waits > 0 ? ` (${summary.waits} wait for their owner to confirm the new address)` : ''}, ${summary.already} already on ${request.to}, ${summary.refused} refused${codes.size === 0 ? '' : ` (${[...codes].map(([code, n]) => `${n}× ${code}`).join(', ')})`}`,
      `  old addresses: ${request.oldAddress === 'keep' ? 'kept as alternates (a revert can make them primary again)' : 'deleted once the new address is primary'}`,
    ];
  }
  if (planned.kind === 'columns') {
    const sheets = new Set(Array.from(plan.rows, (row) => (row.action !== undefined && 'sheetId' in row.action ? row.action.sheetId : 0)));
    const conversions = planned.conversions ?? [];
    return [
      `Column migration: ${plural(sheets.size, 'sheet')} to change, ${plural(plan.summary.change, 'change')}`,
      conversions.length === 0
        ? '  no column changes type: no cell is converted'
        : `  every cell of ${plural(conversions.length, 'column')} is converted: ${conversions.map((each) => `sheet ${each.sheetId} "${printable(each.title)}" ${each.from} → ${each.to}`).join('; ')}`,
    ];
  }
  return [`${printable(plan.source.path)}: ${plural(plan.summary.change, 'webhook')} to change`];
}

/** The plan as text: the headline, the rows (the plan printer of `seatflow plan`), the notes. */
export function formatMigration(planned: PlannedMigration, options: FormatPlanOptions = {}): string {
  return `${migrationHeadline(planned).join('\n')}\n${formatPlan(planned.plan, options)}`;
}
