import { createHash, timingSafeEqual } from 'node:crypto';
import type { GovernanceConfig, OperatorRole } from '../../core/governance-config.js';
import { OPERATOR_NAME } from '../../core/governance-config.js';
import { UsageError } from '../../core/seatflow-error.js';
import type { Actor } from './actor.js';

/** The name the shared control token (control.token) acts under. */
export const CONTROL_TOKEN_OPERATOR = 'control-token';

export interface OperatorDirectory {
  /** True when named operators are configured: roles then apply, and the shared control token only requests. */
  named: boolean;
  /** Who presents this bearer token (an operator's own, or the shared control token); undefined when nobody. */
  byToken(token: string): Actor | undefined;
  /** An operator by name, as a dashboard session names them; undefined when the config no longer lists them. */
  byName(name: string, via: Actor['via']): Actor | undefined;
  /** Who the command line acts as (see `cliActor`). */
  cli(osUser: string, by: string | undefined): Actor;
}

interface Entry {
  name: string;
  role: OperatorRole;
  digest: Buffer;
  osUsers: string[];
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Operators from the config. Without named operators everything works as before: the control token is one admin
 * identity, and the command line acts as the OS account (or --by). With them, each person has their own token (and
 * role); the shared control token can still read and request changes, never approve: an approval names a person.
 */
export function createOperatorDirectory(governance: Pick<GovernanceConfig, 'operators' | 'cliOperator'>, controlToken?: string): OperatorDirectory {
  const named = governance.operators.length > 0;
  const entries: Entry[] = governance.operators.map((operator) => ({
    name: operator.name,
    role: operator.role,
    digest: operator.token !== undefined ? sha256(operator.token) : Buffer.from(operator.tokenSha256!, 'hex'),
    osUsers: operator.osUsers.length > 0 ? operator.osUsers : [operator.name],
  }));
  if (controlToken !== undefined) entries.push({ name: CONTROL_TOKEN_OPERATOR, role: named ? 'operator' : 'admin', digest: sha256(controlToken), osUsers: [] });

  return {
    named,
    byToken(token) {
      const presented = sha256(token);
      let found: Entry | undefined;
      // Every entry is compared (no early exit), so the time taken says nothing about which token was close.
      for (const entry of entries) if (timingSafeEqual(presented, entry.digest) && found === undefined) found = entry;
      if (found === undefined) return undefined;
      return { name: found.name, role: found.role, via: found.name === CONTROL_TOKEN_OPERATOR ? 'control-token' : 'token' };
    },
    byName(name, via) {
      const entry = entries.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
      return entry === undefined ? undefined : { name: entry.name, role: entry.role, via };
    },
    cli(osUser, by) {
      return cliActor(entries.filter((entry) => entry.name !== CONTROL_TOKEN_OPERATOR), named, osUser, by ?? governance.cliOperator);
    },
  };
}

/**
 * The command line's identity. Without named operators: `--by` (or governance.cliOperator / SEATFLOW_OPERATOR), else
 * the OS account, as an admin (whoever runs seatflow here can reach its Redis anyway). With them: the operator the OS
 * account is listed for (`osUsers`, default the operator's own name); `--by` may pick one only if it lists this OS
 * account, so a person cannot approve under a colleague's name from their own login. An account no operator lists is
 * a viewer.
 */
function cliActor(entries: readonly Entry[], named: boolean, osUser: string, by: string | undefined): Actor {
  if (by !== undefined && !OPERATOR_NAME.test(by)) throw new UsageError(`--by "${by}" is not an operator name`, 'Names are 1–64 letters, digits or . _ @ + -');
  if (!named) return { name: by ?? safeName(osUser), role: 'admin', via: 'cli' };
  const mine = entries.filter((entry) => entry.osUsers.some((user) => user === osUser));
  if (by !== undefined) {
    const entry = entries.find((candidate) => candidate.name.toLowerCase() === by.toLowerCase());
    if (entry === undefined) throw new UsageError(`--by ${by}: no such operator in governance.operators`, `Operators: ${entries.map((e) => e.name).join(', ')}`);
    if (!mine.includes(entry)) {
      throw new UsageError(`--by ${by}: the OS account ${osUser} is not one of that operator's osUsers`, 'Each operator lists the OS accounts that act as them (governance.operators[].osUsers).');
    }
    return { name: entry.name, role: entry.role, via: 'cli' };
  }
  const [only, ...others] = mine;
  if (only === undefined) return { name: safeName(osUser), role: 'viewer', via: 'cli' };
  if (others.length > 0) throw new UsageError(`the OS account ${osUser} acts for several operators (${mine.map((e) => e.name).join(', ')})`, 'Say which with --by NAME.');
  return { name: only.name, role: only.role, via: 'cli' };
}

/** An OS account name as the audit trail can hold it. */
function safeName(osUser: string): string {
  const cleaned = osUser.replace(/[^A-Za-z0-9._@+-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'unknown' : cleaned;
}
