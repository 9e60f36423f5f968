import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * Before SEATFLOW_HOME, seatflow kept its state (the private Redis with its batches, offboardings and schedules;
 * reports) in `.seatflow` under the working directory. When such a folder is found where a command starts, and it is
 * not the home in use, the note says so and what to do, instead of the command silently showing another, empty state.
 */
export function legacyHomeNote(cwd: string, home: string): string | undefined {
  const legacy = path.join(path.resolve(cwd), '.seatflow');
  const current = path.resolve(home);
  if (current === legacy || !isDirectory(legacy)) return undefined;
  const [from, to] = [shellWord(legacy), shellWord(current)];
  return (
    `seatflow: note: ${legacy} holds state of an older seatflow (it kept its private Redis and reports in the folder it was started from); ` +
    `seatflow now keeps them in ${current} (SEATFLOW_HOME).\n` +
    `  To go on using the old folder: export SEATFLOW_HOME=${from}\n` +
    `  To move it: stop every seatflow using it, then: mkdir -p ${to} && mv ${from}/* ${to}/ && rmdir ${from}\n`
  );
}

/** A path as one word of a POSIX shell command (macOS's home has a space in it). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
