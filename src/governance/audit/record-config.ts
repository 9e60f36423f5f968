import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RedisClient } from '../../queue/redis/lua-script.js';
import type { QueueKeys } from '../../queue/queue-keys.js';
import type { AuditLog } from './audit-log.js';

export interface ConfigFingerprint {
  files: { path: string; sha256: string }[];
  /** Of every file's path and bytes, in order. */
  sha256: string;
}

/** SHA-256 of each configuration file (never their content: they may hold tokens and passwords). */
export async function fingerprintConfigFiles(files: readonly string[]): Promise<ConfigFingerprint> {
  const all = createHash('sha256');
  const out: ConfigFingerprint['files'] = [];
  for (const file of files) {
    const bytes = await readFile(file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    all.update(`${file}\0${sha256}\n`);
    out.push({ path: file, sha256 });
  }
  return { files: out, sha256: all.digest('hex') };
}

/**
 * At start: appends `config.loaded` when the configuration files are not the ones last recorded, so a change of
 * configuration shows in the trail once, not at every command. Two processes starting at once: the one whose SET
 * replaced the old value records it.
 */
export async function recordConfigIfChanged(redis: RedisClient, keys: Pick<QueueKeys, 'auditConfig'>, audit: AuditLog, files: readonly string[], actor: string): Promise<boolean> {
  const fingerprint = await fingerprintConfigFiles(files);
  const previous = await redis.set(keys.auditConfig, fingerprint.sha256, 'GET');
  if (previous === fingerprint.sha256) return false;
  await audit.append({ event: 'config.loaded', actor, subject: 'configuration', data: { ...fingerprint, ...(previous === null ? {} : { previousSha256: previous }) } });
  return true;
}
