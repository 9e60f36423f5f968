import type { Draw } from './draw.js';
import type { Population } from './population.js';
import { DAY_MS } from './scenario.js';

/** One employee as the nightly HR export lists them. */
export interface Employee {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: 'Active' | 'Terminated';
  /** Calendar dates (YYYY-MM-DD) of the export's zone (UTC in the simulation's policy). */
  hireDate: string;
  terminationDate?: string;
  department: 'Engineering' | 'Support';
}

/** What changed in tonight's export, for the trace. */
export interface RosterChanges {
  joiners: string[];
  movers: string[];
  leavers: string[];
  rehires: string[];
  backAgain: string[];
  /** The export lost most of its employees (a broken export): the sync must change nothing. */
  broken: boolean;
}

const dateOf = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);

/**
 * The HR system's roster, night after night, drawn from the seed alone: the first export lists a dozen members (each
 * in the department whose seat rule gives the seat they hold, so the first sync changes nothing for them); each night
 * brings joiners (start today or in two days), a mover (another department: another seat), leavers (last day today
 * or ahead), sometimes a rehire (a deactivated member employed again), someone whose termination was taken back, or a
 * broken export (most employees missing), which the next night does not build on.
 */
export function nextRoster(draw: Draw, previous: readonly Employee[] | undefined, population: Population, nowMs: number, fresh: (prefix: string) => string): { employees: Employee[]; changes: RosterChanges } {
  const today = (days: number) => dateOf(nowMs + days * DAY_MS);
  const changes: RosterChanges = { joiners: [], movers: [], leavers: [], rehires: [], backAgain: [], broken: false };
  if (previous === undefined) {
    const seated = [...population.onMemberSeat.slice(0, 40), ...population.onLowerSeat.slice(0, 40)];
    const employees = draw.sample(seated, 12).map((person, i): Employee => ({
      id: `E${1000 + i}`,
      email: person.email,
      ...namesOf(person.email),
      status: 'Active',
      hireDate: today(-400),
      department: person.seatType === 'MEMBER' ? 'Engineering' : 'Support',
    }));
    return { employees, changes };
  }
  const employees = previous.map((employee) => ({ ...employee }));
  const active = () => employees.filter((employee) => employee.status === 'Active');
  for (let i = draw.between(0, 2); i > 0; i -= 1) {
    const name = fresh('joiner');
    employees.push({ id: `E${2000 + employees.length}`, email: `${name}@acme.example`, firstName: 'New', lastName: name.replace(/\W/g, ''), status: 'Active', hireDate: today(draw.between(0, 2)), department: draw.pick(['Engineering', 'Support'] as const) });
    changes.joiners.push(`${name}@acme.example`);
  }
  if (draw.chance(0.6) && active().length > 0) {
    const mover = draw.pick(active());
    mover.department = mover.department === 'Engineering' ? 'Support' : 'Engineering';
    changes.movers.push(mover.email);
  }
  for (const leaver of draw.sample(active(), draw.between(0, 2))) {
    leaver.status = 'Terminated';
    leaver.terminationDate = today(draw.between(0, 2));
    changes.leavers.push(leaver.email);
  }
  const rehire = population.deactivated.find((person) => !employees.some((employee) => employee.email === person.email));
  if (rehire !== undefined && draw.chance(0.3)) {
    employees.push({ id: `E${3000 + employees.length}`, email: rehire.email, ...namesOf(rehire.email), status: 'Active', hireDate: today(draw.between(0, 1)), department: 'Support' });
    changes.rehires.push(rehire.email);
  }
  const taken = employees.filter((employee) => employee.status === 'Terminated' && employee.terminationDate !== undefined && employee.terminationDate > today(0));
  if (taken.length > 0 && draw.chance(0.25)) {
    const back = draw.pick(taken);
    back.status = 'Active';
    delete back.terminationDate;
    changes.backAgain.push(back.email);
  }
  changes.broken = draw.chance(0.12);
  return { employees, changes };
}

/** The export's bytes: a broken one keeps only every third employee. */
export function exportCsv(employees: readonly Employee[], generatedAt: number, broken: boolean): string {
  const listed = broken ? employees.filter((_, i) => i % 3 === 0) : employees;
  const lines = listed.map((e) => [e.id, e.firstName, e.lastName, e.email, e.status, e.hireDate, e.terminationDate ?? '', e.department, new Date(generatedAt).toISOString()].join(','));
  return `Employee ID,First Name,Last Name,Work Email,Worker Status,Hire Date,Termination Date,Department,Generated At\n${lines.join('\n')}\n`;
}

/** The lifecycle policy the simulation's syncs run with (control.syncPolicyDir/sim-lifecycle.json). */
export const SIM_LIFECYCLE_POLICY = {
  version: 1,
  name: 'sim-hr',
  timeZone: 'UTC',
  dateFormat: 'YYYY-MM-DD',
  statuses: { active: ['Active'], leaver: ['Terminated'] },
  exportTime: 'column',
  seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
  joiners: { sendEmail: false },
  leavers: { hold: '1d', transferTo: 'dana.whitfield@acme.example', removeFromSharing: false },
  notInExport: 'list',
  protect: { admins: true, emails: ['admin@acme.example'] },
  safety: { maxMissingShare: 0.3 },
} as const;
export const SIM_POLICY_FILE = 'sim-lifecycle.json';
export const SIM_POLICY_HOLD_MS = DAY_MS;

function namesOf(email: string): { firstName: string; lastName: string } {
  const [first = 'x', last = 'y'] = email.split('@')[0]!.split('.');
  const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  return { firstName: cap(first), lastName: cap(last) };
}
