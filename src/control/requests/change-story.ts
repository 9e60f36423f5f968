import { entriesWithin } from '../../governance/audit/audit-export.js';
import type { ControlDeps } from '../control-deps.js';
import { withRedis } from '../with-redis.js';

/** Who asked for a batch or an offboarding, why, and who approved it: what its page says beside what it did. */
export interface ChangeStory {
  requestedBy: string;
  requestedAt: string;
  reason?: string;
  approvedBy?: string;
  approvedAt?: string;
}

/** How long before its record a change's request may have been made (the pre-flight runs in between). */
const REQUEST_BEFORE_MS = 10 * 60_000;

/**
 * The story of a change, from governance: the change request when an approval held it (it keeps who asked, why and who
 * approved), else the audit trail's `change.requested` entry, read only around the moment the change was queued.
 * Undefined without governance, or for a change made before the trail recorded it.
 */
export async function changeStoryOf(deps: ControlDeps, id: string, createdAt: string): Promise<ChangeStory | undefined> {
  const governance = deps.governance;
  if (governance === undefined) return undefined;
  const record = await withRedis(deps, () => governance.gate.get(id));
  if (record !== undefined) {
    return {
      requestedBy: record.requestedBy.name,
      requestedAt: record.requestedAt,
      ...(record.reason === undefined ? {} : { reason: record.reason }),
      ...(record.approvedBy === undefined ? approvedOf(record.history) : { approvedBy: record.approvedBy, ...(record.approvedAt === undefined ? {} : { approvedAt: record.approvedAt }) }),
    };
  }
  const at = Date.parse(createdAt);
  if (Number.isNaN(at)) return undefined;
  const range = { fromMs: at - REQUEST_BEFORE_MS, toMs: at + 60_000 };
  return withRedis(deps, async () => {
    for await (const { entry } of entriesWithin(governance.audit.entries({ fromMs: range.fromMs - 60_000, toMs: range.toMs + 60_000 }), range)) {
      if (entry.event === 'change.requested' && entry.subject === id) {
        return { requestedBy: entry.actor, requestedAt: entry.at, ...(entry.reason === undefined ? {} : { reason: entry.reason }) };
      }
    }
    return undefined;
  });
}

/** The last approval of a request's history (a record keeps `approvedBy` only while it is being acted on). */
function approvedOf(history: ReadonlyArray<{ event: string; by: string; at: string }>): { approvedBy?: string; approvedAt?: string } {
  const approved = [...history].reverse().find((entry) => entry.event === 'approved');
  return approved === undefined ? {} : { approvedBy: approved.by, approvedAt: approved.at };
}
