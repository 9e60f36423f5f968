import { createPrng } from '../sim/prng.js';
import type { ParsedFixture } from './fixture-schema.js';

type User = ParsedFixture['users'][number];

const FIRST = ['ava', 'ben', 'cara', 'dev', 'emma', 'finn', 'gia', 'hugo', 'isla', 'jack', 'kai', 'lena', 'milo', 'nora', 'owen', 'pia', 'quinn', 'rosa', 'sami', 'tara', 'uma', 'vik', 'wren', 'xena', 'yara', 'zane'];
const LAST = ['adams', 'baker', 'clark', 'diaz', 'evans', 'flores', 'green', 'hall', 'ito', 'jones', 'khan', 'lopez', 'moore', 'nakamura', 'ortiz', 'patel', 'reyes', 'silva', 'turner', 'usman', 'vega', 'walsh', 'young', 'zhou'];
const DEPARTMENTS = ['Engineering', 'Sales', 'Finance', 'People', 'Operations', 'Marketing', 'Support'];

/** Status and seat of the n-th generated user: a fixed cycle, so every status and seat type occurs in any 20 users. */
const PROFILES: { status: User['status']; seatType: NonNullable<User['seatType']>; deactivatedDaysAgo?: number }[] = [
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'VIEWER' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'VIEWER' },
  { status: 'ACTIVE', seatType: 'GUEST' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'PROVISIONAL_MEMBER' },
  { status: 'DEACTIVATED', seatType: 'MEMBER', deactivatedDaysAgo: 5 },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'PENDING', seatType: 'VIEWER' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'ACTIVE', seatType: 'VIEWER' },
  { status: 'DEACTIVATED', seatType: 'VIEWER', deactivatedDaysAgo: 60 },
  { status: 'ACTIVE', seatType: 'MEMBER' },
  { status: 'DECLINED', seatType: 'VIEWER' },
  { status: 'ACTIVE', seatType: 'GUEST' },
  { status: 'ACTIVE', seatType: 'MEMBER' },
];

/**
 * When the n-th generated user last logged in, so that licence policies have something to find: most users recently,
 * one in 40 not for 3–12 months (stale), one in 40 never since being invited 10–69 days ago.
 */
function lastLoginOf(i: number, recent: number): Pick<User, 'lastLoginDaysAgo' | 'invitedDaysAgo'> {
  if (i % 40 === 16) return { lastLoginDaysAgo: 91 + recent * 5 };
  if (i % 40 === 33) return { invitedDaysAgo: 10 + recent };
  return { lastLoginDaysAgo: recent };
}

/**
 * `count` users `firstname.lastname.NNN@acme.example`, deterministic for a seed. Built as final fixture objects
 * (no schema pass), so 100,000 users take well under a second.
 */
export function generateUsers(count: number, mainPlanId: number, labsPlanId: number, seed = 7): User[] {
  const prng = createPrng(seed);
  const users: User[] = new Array<User>(count);
  const width = Math.max(3, String(count).length);
  for (let i = 0; i < count; i += 1) {
    const first = prng.pick(FIRST);
    const last = prng.pick(LAST);
    const profile = PROFILES[i % PROFILES.length] ?? { status: 'ACTIVE', seatType: 'MEMBER' };
    const inLabs = i % 25 === 7;
    // Drawn for every user, so the names that follow stay what they were before last logins varied.
    const recentLogin = prng.int(60);
    const user: User = {
      email: `${first}.${last}.${String(i + 1).padStart(width, '0')}@acme.example`,
      firstName: first[0]?.toUpperCase() + first.slice(1),
      lastName: last[0]?.toUpperCase() + last.slice(1),
      admin: i % 97 === 3,
      licensedSheetCreator: profile.seatType === 'MEMBER',
      groupAdmin: false,
      resourceViewer: false,
      status: profile.status,
      externallyManaged: i % 31 === 11,
      seats: inLabs
        ? [{ planId: mainPlanId, seatType: profile.seatType }, { planId: labsPlanId, seatType: 'MEMBER' }]
        : [{ planId: mainPlanId, seatType: profile.seatType }],
      alternateEmails: [],
      department: prng.pick(DEPARTMENTS),
    };
    Object.assign(user, lastLoginOf(i, recentLogin));
    if (profile.deactivatedDaysAgo !== undefined) user.deactivatedDaysAgo = profile.deactivatedDaysAgo;
    users[i] = user;
  }
  return users;
}
