/** A date of an employee as the export wrote it, and what seatflow read it as (the plan shows both). */
export interface DateSource {
  written: string;
  /** The header of its column, as written. */
  column: string;
  /** In words: `start of 2026-12-01 in Europe/Berlin`. */
  readAs: string;
}

/** How the policy reads an employee's status: still employed, or leaving/left. */
export type EmploymentStatus = 'active' | 'leaver';

/** One employee of an HR export, as `seatflow sync` reads them (read-hr-export.ts). */
export interface Employee {
  row: number;
  line: number;
  employeeId: string;
  email: string;
  /** Undefined when the export has no status (then the dates say it). */
  status?: EmploymentStatus;
  statusWritten?: string;
  /** The first day, from its start (epoch ms). */
  startAt?: number;
  start?: DateSource;
  /** When access ends: the end of the last day (epoch ms). */
  endAt?: number;
  end?: DateSource;
  /** When a change of department, title or location takes effect. */
  effectiveAt?: number;
  effective?: DateSource;
  department?: string;
  title?: string;
  location?: string;
  managerEmail?: string;
  firstName?: string;
  lastName?: string;
  /** The zone the employee's dates were read in. */
  timeZone: string;
}

/**
 * What is kept of an employee once an export is accepted, to compare the next export with (accepted-exports.ts):
 * the facts a joiner, a mover or a leaver is told by. Short keys: 100,000 of them live in Redis.
 */
export interface KeptEmployee {
  e: string;
  /** status: a = active, l = leaver, absent = not given. */
  s?: 'a' | 'l';
  start?: number;
  end?: number;
  d?: string;
  t?: string;
  loc?: string;
  m?: string;
}

export function keptOf(employee: Employee): KeptEmployee {
  return {
    e: employee.email,
    ...(employee.status === undefined ? {} : { s: employee.status === 'active' ? 'a' : 'l' }),
    ...(employee.startAt === undefined ? {} : { start: employee.startAt }),
    ...(employee.endAt === undefined ? {} : { end: employee.endAt }),
    ...(employee.department === undefined ? {} : { d: employee.department }),
    ...(employee.title === undefined ? {} : { t: employee.title }),
    ...(employee.location === undefined ? {} : { loc: employee.location }),
    ...(employee.managerEmail === undefined ? {} : { m: employee.managerEmail }),
  };
}

/**
 * Whether the employee is leaving or has left at `nowMs` by what the export says: a leaver status, or an end date (past
 * or to come). A future end date makes a leaver on that date.
 */
export function isLeaving(employee: Pick<Employee, 'status' | 'endAt'>): boolean {
  return employee.status === 'leaver' || employee.endAt !== undefined;
}
