import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileRefusal } from '../core/file-refusal.js';
import { UsageError } from '../core/seatflow-error.js';
import { describeIssues } from '../reconcile/load-policy.js';
import { lifecyclePolicySchema, type LifecyclePolicy } from './lifecycle-policy.js';

export interface LoadedLifecyclePolicy {
  /** Absolute path of the policy file. */
  path: string;
  /** SHA-256 of its bytes: every plan and report names it. */
  sha256: string;
  policy: LifecyclePolicy;
  /** What names this policy's accepted exports (with the target): its `name`, else its path. */
  key: string;
}

const HINT = 'A lifecycle policy looks like {"timeZone": "Europe/Berlin", "seats": {"rules": [{"when": {"department": "Engineering"}, "then": {"seat": "MEMBER"}}]}}; see jobs/examples/lifecycle-policy.json and docs/sync.md.';

/** Reads, hashes and checks a lifecycle policy (JSON); refuses it with its first problems. */
export async function loadLifecyclePolicy(file: string): Promise<LoadedLifecyclePolicy> {
  const absolute = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    throw fileRefusal('lifecycle policy', file, error, 'Check the path given to --policy.');
  }
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`lifecycle policy ${file} is not valid JSON: ${(error as Error).message}`, HINT);
  }
  const parsed = lifecyclePolicySchema.safeParse(document);
  if (!parsed.success) throw new UsageError(`lifecycle policy ${file} is refused: ${describeIssues(parsed.error)}`, HINT);
  const policy = parsed.data;
  return { path: absolute, sha256: createHash('sha256').update(bytes).digest('hex'), policy, key: policy.name ?? `file:${absolute}` };
}
