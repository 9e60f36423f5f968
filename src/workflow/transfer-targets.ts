import { ResourceNotFoundError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { User, UserProfile } from '../contract/index.js';
import type { LeaverState } from './leaver-state.js';

/** How long one read of a transfer target stands for the removals of its offboarding that run after it. */
export const TARGET_READ_MS = 60_000;

export interface TransferTargetLookup {
  workflowId: string;
  /** The target as named: the row's (or a sync's manager) or --transfer-to. */
  email: string;
  /** The target the plan resolved, when it is the one named (read by id then). */
  planned: LeaverState['transferTo'];
  api: SmartsheetApi;
  signal?: AbortSignal;
}

export interface TransferTargets {
  read(lookup: TransferTargetLookup): Promise<User | UserProfile | undefined>;
  /**
   * Drops what was read of an offboarding's targets (one, or all): a target that could not take over, or a removal the
   * service refused, is read again by the next removal (it may be being fixed: a retry must see the fix).
   */
  forget(workflowId: string, email?: string): void;
}

/**
 * The transfer targets of offboardings' removals, read once per offboarding and step run, not once per leaver: the
 * removals of one offboarding that run within a minute of a read share it (an offboarding of 500 leavers to one
 * manager reads the manager once, not 500 times); a removal that runs later reads the target again, since it may
 * have changed since (deactivated, downgraded). Kept in this process's memory: each step worker process reads a
 * target once per run. A read that failed is not kept.
 */
export function createTransferTargets(now: () => number = Date.now): TransferTargets {
  const reads = new Map<string, { at: number; user: Promise<User | UserProfile | undefined> }>();
  const keyOf = (workflowId: string, email: string) => `${workflowId}\n${email}`;
  return {
    read(lookup) {
      const at = now();
      if (reads.size > 1000) for (const [key, read] of reads) if (at - read.at >= TARGET_READ_MS) reads.delete(key);
      const key = keyOf(lookup.workflowId, lookup.email);
      const kept = reads.get(key);
      if (kept !== undefined && at - kept.at < TARGET_READ_MS) return kept.user;
      const user = readTarget(lookup);
      reads.set(key, { at, user });
      user.catch(() => reads.delete(key));
      return user;
    },
    forget(workflowId, email) {
      if (email !== undefined) reads.delete(keyOf(workflowId, email));
      else for (const key of reads.keys()) if (key.startsWith(`${workflowId}\n`)) reads.delete(key);
    },
  };
}

async function readTarget({ api, email, planned, signal }: TransferTargetLookup): Promise<User | UserProfile | undefined> {
  const call = signal === undefined ? {} : { signal };
  try {
    if (planned?.userId !== undefined && planned.email === email) return await api.users.get(planned.userId, call);
    const page = await api.users.listPage({ ...call, email: [email] });
    return page.data.find((user) => user.email.toLowerCase() === email);
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return undefined;
    throw error;
  }
}
