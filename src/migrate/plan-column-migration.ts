import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Column } from '../contract/index.js';
import type { ActionOf } from '../manifest/action.js';
import { countCalls, isNotFound } from '../plan/count-calls.js';
import type { GuardrailLimits } from '../plan/guardrails.js';
import type { ColumnSpec, SpecColumn } from './column-spec.js';
import { judgedPlan, type JudgedPlan, type WantedRow } from './judged-plan.js';
import { resourceFacts } from './resource-facts.js';
import { addColumnStateBefore } from '../../jobs/add-column.js';
import { columnStateBefore } from '../../jobs/update-column.js';
import type { ResolvedTarget } from '../plan/planned-row.js';

export interface PlanColumnMigrationOptions {
  api: SmartsheetApi;
  sheetIds: readonly number[];
  spec: ColumnSpec;
  /** For the plan's title: the files named. */
  sheetsFile: string;
  specFile: string;
  guardrails: GuardrailLimits;
  /**
   * Now on the service's clock, before the columns are read: the rows carry the columns as read then (readAtPlan), so
   * the batch does not read each again for revert while that reading stands. Absent: each row reads its column.
   */
  nowMs?: number;
}

/**
 * The plan of bringing many sheets' columns to a standard, from live state, changing nothing. Per sheet (one read of
 * its columns): a column of the standard that is missing is added at its index; one found under a former title is
 * renamed; a different type or different options are set (with the type, as the service requires); columns the
 * standard does not name are deleted only when it says so. Each row is then judged by the pre-flight's update-column
 * rules: the primary column's type never changes, a Gantt/calendar column keeps its type while dependencies are on, and
 * a type change converts every cell of the column (the plan says which).
 */
/** A column whose cells a type change converts: which, and from what to what. */
export interface CellConversion {
  sheetId: number;
  columnId: number;
  title: string;
  from: string;
  to: string;
}

export interface ColumnMigrationPlan extends JudgedPlan {
  /** The columns the plan converts (their update-column rows are changes): every cell of each. */
  conversions: CellConversion[];
}

export async function planColumnMigration(options: PlanColumnMigrationOptions): Promise<ColumnMigrationPlan> {
  const { api, calls } = countCalls(options.api);
  const columns = new Map<number, Column[] | 'not-found'>();
  const wanted: WantedRow[] = [];
  for (const sheetId of options.sheetIds) {
    let live: Column[];
    try {
      live = (await api.columns.listPage(sheetId, { includeAll: true, level: 2 })).data;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      columns.set(sheetId, 'not-found');
      // One row says the sheet cannot be read: the pre-flight judges it not found.
      wanted.push({ action: { action: 'add-column', sheetId, title: options.spec.columns[0]!.title, type: options.spec.columns[0]!.type, index: 0 } });
      continue;
    }
    columns.set(sheetId, live);
    wanted.push(...sheetRows(sheetId, live, options.spec));
  }
  const title = `migrate columns ${options.specFile} on ${options.sheetsFile}`;
  const stateBefore = (action: WantedRow['action'], target: ResolvedTarget) => {
    if (action.action === 'add-column') {
      const sheet = columns.get(action.sheetId);
      return sheet === undefined || sheet === 'not-found' ? undefined : addColumnStateBefore(sheet);
    }
    if (action.action !== 'update-column') return undefined;
    const live = columns.get(action.sheetId);
    const column = live === 'not-found' ? undefined : live?.find((each) => each.id === (target.columnId ?? action.columnId));
    return column === undefined ? undefined : columnStateBefore(column, action);
  };
  const judged = judgedPlan(title, wanted, resourceFacts({ columns }), { apiCalls: calls(), guardrails: options.guardrails, ...(options.nowMs === undefined ? {} : { readAtMs: options.nowMs, stateBefore }) });
  const conversions: CellConversion[] = [];
  for (const row of judged.plan.rows) {
    if (row.verdict !== 'change' || row.action?.action !== 'update-column' || row.action.type === undefined) continue;
    const { sheetId, columnId, type } = row.action;
    const live = columns.get(sheetId);
    const column = live === 'not-found' ? undefined : live?.find((each) => each.id === columnId);
    if (column !== undefined && column.type !== type) conversions.push({ sheetId, columnId: column.id, title: column.title, from: column.type, to: type });
  }
  return { ...judged, conversions };
}

/** What one sheet needs to match the standard. */
export function sheetRows(sheetId: number, live: readonly Column[], spec: ColumnSpec): WantedRow[] {
  const matched = new Set<number>();
  const rows: WantedRow[] = [];
  const adds: SpecColumn[] = [];
  for (const column of spec.columns) {
    const found = findColumn(live, column);
    if (found === undefined) {
      adds.push(column);
      continue;
    }
    matched.add(found.id);
    const update = updateOf(sheetId, found, column);
    if (update !== undefined) rows.push({ action: update, note: found.title.toLowerCase() === column.title.toLowerCase() ? `"${found.title}"` : `"${found.title}" is a former title of "${column.title}"` });
  }
  const keep = new Set(spec.keep.map((name) => name.toLowerCase()));
  const deletes = spec.deleteOthers ? live.filter((column) => !matched.has(column.id) && column.primary !== true && !keep.has(column.title.toLowerCase())) : [];
  // The rows of a batch run in any order: an added column's index must hold whichever adds and deletes ran before it.
  const highest = live.length - deletes.length;
  for (const column of adds) {
    const index = Math.min(column.index ?? highest, highest);
    const clamped = column.index !== undefined && index < column.index;
    rows.push({
      action: { action: 'add-column', sheetId, ...definedOf(column), title: column.title, type: column.type, index },
      note: clamped ? `added at ${index}, not ${column.index}: the sheet has ${live.length} columns${deletes.length === 0 ? '' : ` and loses ${deletes.length}`}, and the rows run in any order` : 'missing from the sheet',
    });
  }
  for (const column of deletes) rows.push({ action: { action: 'delete-column', sheetId, columnId: column.id }, note: `"${column.title}" is not in the standard (deleteOthers); its cells go with it` });
  return rows;
}

function findColumn(live: readonly Column[], column: SpecColumn): Column | undefined {
  const names = [column.title, ...column.formerTitles].map((name) => name.toLowerCase());
  for (const name of names) {
    const found = live.find((each) => each.title.toLowerCase() === name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The update that makes `found` the standard's column: the fields that differ (type always with options). */
function updateOf(sheetId: number, found: Column, column: SpecColumn): ActionOf<'update-column'> | undefined {
  const fields = definedOf(column);
  const differs = (Object.keys(fields) as (keyof typeof fields)[]).filter((field) => {
    const value = fields[field];
    const current = found[field];
    return Array.isArray(value) ? !Array.isArray(current) || value.join('\u0000') !== current.join('\u0000') : value !== (current ?? (typeof value === 'boolean' ? false : undefined));
  });
  const renamed = found.title !== column.title;
  const retyped = found.type !== column.type;
  if (!renamed && !retyped && differs.length === 0) return undefined;
  // The service needs `type` with options or symbol (1090): it is sent whenever they change, the same type included.
  const needsType = retyped || differs.includes('options') || differs.includes('symbol');
  const changed = Object.fromEntries(differs.map((field) => [field, fields[field]]));
  return { action: 'update-column', sheetId, columnId: found.id, ...(renamed ? { title: column.title } : {}), ...(needsType ? { type: column.type } : {}), ...changed };
}

/** The standard's settable fields that it gives (title, type, index and formerTitles apart). */
function definedOf(column: SpecColumn): Partial<Pick<SpecColumn, 'options' | 'symbol' | 'width' | 'hidden' | 'locked' | 'description'>> {
  const { options, symbol, width, hidden, locked, description } = column;
  return Object.fromEntries(Object.entries({ options, symbol, width, hidden, locked, description }).filter(([, value]) => value !== undefined));
}
