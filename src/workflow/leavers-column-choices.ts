import type { LeaversField } from '../manifest/columns/input-vocabularies.js';
import type { LeaversColumnChoices } from './read-leavers.js';

/**
 * The column options of `seatflow offboard` and of the control API's offboarding route, as the leavers reader takes
 * them: undefined when none was given, so an offboarding without them keeps the id it always had.
 */
export function leaversColumnChoices(named: Partial<Record<LeaversField, string | undefined>>, ignore: readonly string[]): LeaversColumnChoices | undefined {
  const columns = Object.fromEntries(Object.entries(named).filter(([, column]) => column !== undefined && column.trim() !== '')) as Partial<Record<LeaversField, string>>;
  if (Object.keys(columns).length === 0 && ignore.length === 0) return undefined;
  return { ...(Object.keys(columns).length === 0 ? {} : { columns }), ...(ignore.length === 0 ? {} : { ignore: [...ignore] }) };
}

/** The choices as they enter an offboarding's id: same choices, same text, whatever order they were given in. */
export function canonicalColumnChoices(choices: LeaversColumnChoices | undefined): string {
  if (choices === undefined) return '';
  const columns = Object.entries(choices.columns ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({ columns, ignore: [...(choices.ignore ?? [])].sort() });
}
