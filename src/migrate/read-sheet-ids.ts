import { manifestIdSchema } from '../manifest/action.js';
import { readListFile } from './read-list-file.js';

/** The sheets of a column migration (`--sheets FILE`): one id a line, or a CSV with a sheetId column. */
export async function readSheetIds(file: string, content?: Buffer): Promise<number[]> {
  const list = await readListFile({
    path: file,
    ...(content === undefined ? {} : { content }),
    noun: 'sheets',
    columns: ['sheetid', 'sheet', 'id'],
    check(value) {
      const parsed = manifestIdSchema.safeParse(value);
      return parsed.success ? { ok: true, value: String(parsed.data) } : { ok: false, message: parsed.error.issues[0]?.message ?? 'not a sheet id' };
    },
  });
  return list.values.map((entry) => Number(entry.value));
}
