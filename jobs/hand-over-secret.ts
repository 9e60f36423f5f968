import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError } from '../src/client/api-error.js';

/** What the destination receives for one rotated webhook: one JSON line. */
export interface HandedSecret {
  webhookId: number;
  name?: string | undefined;
  sharedSecret: string;
  rotatedAt: string;
  batchId: string;
  row: number;
}

/**
 * Hands a new shared secret to the destination the operator named (`secretTo`): appended as one JSON line to a file
 * that only its owner may read (created 0600; an existing file open to others is refused, and so is a folder that
 * does not exist). The one place the secret is written: never in an outcome, a report or a log line.
 */
export async function handOverSecret(file: string, secret: HandedSecret): Promise<void> {
  const refuse = (why: string) =>
    new InvalidArgumentError({ operation: 'webhooks.resetSharedSecret', message: `the new secret of webhook ${secret.webhookId} could not be handed to ${file}: ${why}; its secret was reset, so run the row again once the file is fixed (seatflow retry)` });
  try {
    const folder = await stat(path.dirname(file));
    if (!folder.isDirectory()) throw refuse(`${path.dirname(file)} is not a folder`);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    throw refuse(`its folder ${path.dirname(file)} does not exist`);
  }
  let handle;
  try {
    handle = await open(file, 'a', 0o600);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  try {
    const { mode } = await handle.stat();
    if ((mode & 0o077) !== 0) throw refuse(`the file can be read by others (mode ${(mode & 0o777).toString(8)}): chmod 600 it`);
    await handle.appendFile(`${JSON.stringify(secret)}\n`);
  } finally {
    await handle.close();
  }
}
