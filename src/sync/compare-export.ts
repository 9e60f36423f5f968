import type { AcceptedExports } from './accepted-exports.js';
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

/**
 * The comparison of syncCandidates without holding the export or the accepted export: the export's employees streamed
 * from their store a chunk at a time, each chunk's accepted records read from Redis in one call, then the accepted
 * export walked once for the employees gone from this one. `accepted` undefined: a first sync.
 */
export async function compareExport(
  context: Omit<CandidateContext, 'firstSync'>,
  employees: Iterable<Employee>,
  accepted: Pick<AcceptedExports, 'employeesById' | 'employees'> | undefined,
  chunkSize = COMPARE_CHUNK,
): Promise<ComparedExport> {
  const pass = createCandidatePass({ ...context, firstSync: accepted === undefined });
  for await (const chunk of chunksOf(employees, chunkSize)) {
    const kept = accepted === undefined ? undefined : await accepted.employeesById(chunk.map((employee) => employee.employeeId));
    for (const employee of chunk) pass.employee(employee, kept?.get(employee.employeeId));
  }
  let previousSize = 0;
  if (accepted !== undefined) {
    for await (const [employeeId, kept] of accepted.employees()) {
      previousSize += 1;
      pass.previous(employeeId, kept);
    }
  }
  return { candidates: pass.finish(), previousSize };
}
