import { UsageError } from '../core/seatflow-error.js';
import type { AcceptedExport, AcceptedExports } from './accepted-exports.js';
import { chunksOf } from './chunks-of.js';
import type { Employee } from './employee.js';
import { createCandidatePass, type CandidateContext, type Candidates } from './sync-candidates.js';

/** Employees compared at a time: one read of the accepted export (HMGET) per chunk. */
export const COMPARE_CHUNK = 1000;

export interface ComparedExport {
  candidates: Candidates;
  /** Employees of the accepted export (0 on a first sync). */
  previousSize: number;
}

/** The accepted export compared with: where it is read, and what it was when the sync began. */
export interface AcceptedToCompare {
  exports: Pick<AcceptedExports, 'employeesById' | 'employees' | 'meta'>;
  meta: AcceptedExport;
}

/**
 * The comparison of syncCandidates without holding the export or the accepted export: the export's employees streamed
 * from their store a chunk at a time, each chunk's accepted records read from Redis in one call, then the accepted
 * export walked once for the employees gone from this one. `accepted` undefined: a first sync. Read over the whole
 * comparison rather than at one instant, so a sync of the same target and policy that accepts an export meanwhile is
 * noticed and this plan refused: it would have compared with parts of two exports.
 */
export async function compareExport(context: Omit<CandidateContext, 'firstSync'>, employees: Iterable<Employee>, accepted: AcceptedToCompare | undefined, chunkSize = COMPARE_CHUNK): Promise<ComparedExport> {
  const pass = createCandidatePass({ ...context, firstSync: accepted === undefined });
  for await (const chunk of chunksOf(employees, chunkSize)) {
    const kept = accepted === undefined ? undefined : await accepted.exports.employeesById(chunk.map((employee) => employee.employeeId));
    for (const employee of chunk) pass.employee(employee, kept?.get(employee.employeeId));
  }
  let previousSize = 0;
  if (accepted !== undefined) {
    for await (const [employeeId, kept] of accepted.exports.employees()) {
      previousSize += 1;
      pass.previous(employeeId, kept);
    }
    const now = await accepted.exports.meta();
    if (now?.sha256 !== accepted.meta.sha256 || now.acceptedAt !== accepted.meta.acceptedAt) {
      throw new UsageError(
        `another sync of this target and policy accepted an export (${now === undefined ? 'none now' : `${now.file}, accepted ${now.acceptedAt}`}) while this one compared with the one accepted ${accepted.meta.acceptedAt}: nothing was planned`,
        'Run the sync again: it compares with the export accepted now.',
      );
    }
  }
  return { candidates: pass.finish(), previousSize };
}
