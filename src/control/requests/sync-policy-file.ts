import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';

/** A policy's name as a request gives it: a file name of the folder, never a path. */
const POLICY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}\.json$/;

/** Refused: the server has no policy folder (control.syncPolicyDir), so no sync can be started over HTTP. */
export function noPolicyFolder(): ControlError {
  return new ControlError(409, CONTROL_ERROR_CODES.conflict, 'this server has no folder of lifecycle policies: a sync cannot be started over HTTP', {
    hint: 'Set control.syncPolicyDir in the configuration to the folder of the policies a sync may use, and restart seatflow serve; or run seatflow sync HR_EXPORT --policy FILE.',
  });
}

/** The lifecycle policies a sync may be started with: the `.json` files of the folder, by name. */
export async function listSyncPolicies(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && POLICY_NAME.test(entry.name)).map((entry) => entry.name).sort();
}

/**
 * The file of the policy a request names, confined to the folder: a name with a folder in it, `..`, or a link that
 * leads out of the folder is refused before anything is read (a request may not make the server read its disk).
 */
export async function syncPolicyFile(dir: string, name: string): Promise<string> {
  const refused = (why: string) =>
    new ControlError(400, CONTROL_ERROR_CODES.badRequest, `policy ${JSON.stringify(name)} is refused: ${why}`, {
      hint: 'Name one of the lifecycle policies of the server\'s policy folder (control.syncPolicyDir) by its file name, e.g. policy=lifecycle.json.',
    });
  if (!POLICY_NAME.test(name)) throw refused('a policy is named by its file name in the policy folder (letters, digits, . _ -, ending .json)');
  const folder = await realpath(dir).catch(() => {
    throw new ControlError(409, CONTROL_ERROR_CODES.conflict, `the policy folder ${dir} (control.syncPolicyDir) cannot be read`, { hint: 'Create it, or correct control.syncPolicyDir, and restart seatflow serve.' });
  });
  const file = await realpath(path.join(folder, name)).catch(() => {
    throw refused('no such policy in the policy folder');
  });
  if (path.dirname(file) !== folder) throw refused('it leads out of the policy folder');
  return file;
}
