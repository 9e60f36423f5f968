import type { ServiceUser } from '../world/service-controls.js';

/** A person of the demo organization as the generator knows them at the start. */
export interface Person {
  id: number;
  email: string;
  seatType?: string;
}

/**
 * The demo organization at the start, sorted into what the generator draws from: members an operator may act on,
 * deactivated members (rehires), and users the service or the plan refuses (admins, consumer mail domains), so that
 * some rows end refused with the service's code. Built from the service's own list at the start, which the demo
 * organization makes the same for every run.
 */
export interface Population {
  members: Person[];
  /** Of the members: those on a Member seat (downgrades), and those on a lower seat (upgrades). */
  onMemberSeat: Person[];
  onLowerSeat: Person[];
  deactivated: Person[];
  refusable: Person[];
  /** Whoever the removals transfer to: an active member never drawn for anything else. */
  transferTarget: Person;
  /** The sheet the sheet-side actions change, its columns other than the primary one, and the webhooks. */
  sheet: { id: number; columns: { id: number; title: string }[] };
  webhooks: { id: number; name: string }[];
}

export interface PopulationSource {
  users: readonly ServiceUser[];
  sheetId: number;
  columns: readonly { id: number; title: string; primary?: boolean }[];
  webhooks: readonly { id: number; name: string }[];
}

const GENERATED = /^[a-z]+\.[a-z]+\.\d+@acme\.example$/;

export function populationOf(source: PopulationSource): Population {
  const sorted = [...source.users].sort((a, b) => a.email.localeCompare(b.email));
  const person = (user: ServiceUser): Person => ({ id: user.id, email: user.email.toLowerCase(), ...(typeof user.seatType === 'string' ? { seatType: user.seatType } : {}) });
  const generated = sorted.filter((user) => GENERATED.test(user.email));
  const active = generated.filter((user) => user.status === 'ACTIVE' && user.admin !== true).map(person);
  const transferTarget = sorted.find((user) => user.email === 'dana.whitfield@acme.example');
  if (transferTarget === undefined) throw new Error('the demo organization has no dana.whitfield@acme.example to transfer to');
  return {
    members: active,
    onMemberSeat: active.filter((p) => p.seatType === 'MEMBER'),
    onLowerSeat: active.filter((p) => p.seatType === 'VIEWER' || p.seatType === 'CONTRIBUTOR'),
    deactivated: generated.filter((user) => user.status === 'DEACTIVATED').map(person),
    refusable: sorted.filter((user) => user.admin === true || /@gmail\.com$/.test(user.email)).filter((user) => user.email !== 'admin@acme.example').map(person),
    transferTarget: person(transferTarget),
    sheet: { id: source.sheetId, columns: source.columns.filter((column) => column.primary !== true).map(({ id, title }) => ({ id, title })) },
    webhooks: source.webhooks.map(({ id, name }) => ({ id, name })),
  };
}
