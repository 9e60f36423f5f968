import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { governanceSchema } from '../../../src/core/governance-config.js';
import { hasRole, requireRole } from '../../../src/governance/operators/actor.js';
import { CONTROL_TOKEN_OPERATOR, createOperatorDirectory } from '../../../src/governance/operators/operator-directory.js';

const ALICE = 'alice-token-0123456789abcdef0123456789';
const BOB = 'bob-token-0123456789abcdef0123456789abcd';
const CONTROL = 'control-token-0123456789abcdef0123456789';

const governance = governanceSchema.parse({
  operators: [
    { name: 'alice', role: 'operator', token: ALICE, osUsers: ['asmith'] },
    { name: 'bob', role: 'approver', tokenSha256: createHash('sha256').update(BOB).digest('hex') },
    { name: 'vera', role: 'viewer', token: 'vera-token-0123456789abcdef0123456789ab', osUsers: ['asmith', 'vjones'] },
  ],
});

describe('createOperatorDirectory', () => {
  it('knows each operator by their own token, stored or only hashed, and nobody by a wrong one', () => {
    const directory = createOperatorDirectory(governance, CONTROL);
    expect(directory.byToken(ALICE)).toEqual({ name: 'alice', role: 'operator', via: 'token' });
    expect(directory.byToken(BOB)).toEqual({ name: 'bob', role: 'approver', via: 'token' });
    expect(directory.byToken(`${ALICE}x`)).toBeUndefined();
  });

  it('lets the shared control token request but not approve once named operators exist; without them it is an admin', () => {
    expect(createOperatorDirectory(governance, CONTROL).byToken(CONTROL)).toEqual({ name: CONTROL_TOKEN_OPERATOR, role: 'operator', via: 'control-token' });
    expect(createOperatorDirectory(governanceSchema.parse({}), CONTROL).byToken(CONTROL)).toEqual({ name: CONTROL_TOKEN_OPERATOR, role: 'admin', via: 'control-token' });
  });

  it('finds a dashboard session\'s operator by name, and nobody once the config drops them', () => {
    const directory = createOperatorDirectory(governance, CONTROL);
    expect(directory.byName('BOB', 'session')).toEqual({ name: 'bob', role: 'approver', via: 'session' });
    expect(directory.byName('mallory', 'session')).toBeUndefined();
  });

  it('gives the command line the operator its OS account is listed for, and refuses --by for someone else\'s name', () => {
    const directory = createOperatorDirectory(governance);
    expect(directory.cli('bob', undefined)).toEqual({ name: 'bob', role: 'approver', via: 'cli' });
    expect(directory.cli('vjones', undefined)).toEqual({ name: 'vera', role: 'viewer', via: 'cli' });
    expect(() => directory.cli('asmith', undefined)).toThrow(/acts for several operators \(alice, vera\)/);
    expect(directory.cli('asmith', 'alice')).toEqual({ name: 'alice', role: 'operator', via: 'cli' });
    expect(() => directory.cli('asmith', 'bob')).toThrow(/the OS account asmith is not one of that operator's osUsers/);
    expect(directory.cli('stranger', undefined)).toEqual({ name: 'stranger', role: 'viewer', via: 'cli' });
  });

  it('without named operators, the command line is the OS account (or --by), as an admin', () => {
    const directory = createOperatorDirectory(governanceSchema.parse({ cliOperator: 'ops-bot' }));
    expect(directory.cli('root', undefined)).toEqual({ name: 'ops-bot', role: 'admin', via: 'cli' });
    expect(directory.cli('root', 'carol')).toEqual({ name: 'carol', role: 'admin', via: 'cli' });
    expect(() => directory.cli('root', 'carol smith')).toThrow(/is not an operator name/);
  });
});

describe('roles', () => {
  it('include the roles before them', () => {
    expect(hasRole({ role: 'admin' }, 'approver')).toBe(true);
    expect(hasRole({ role: 'approver' }, 'operator')).toBe(true);
    expect(hasRole({ role: 'operator' }, 'approver')).toBe(false);
    expect(() => requireRole({ name: 'vera', role: 'viewer', via: 'token' }, 'operator', 'request changes')).toThrow(/vera \(viewer\) may not request changes: that needs the operator role/);
  });

  it('are refused in the config file when unknown, and a token too short', () => {
    expect(governanceSchema.safeParse({ operators: [{ name: 'x', role: 'boss', token: ALICE }] }).success).toBe(false);
    expect(governanceSchema.safeParse({ operators: [{ name: 'x', role: 'viewer', token: 'short' }] }).success).toBe(false);
    expect(governanceSchema.safeParse({ operators: [{ name: 'x', role: 'viewer' }] }).success).toBe(false);
    expect(governanceSchema.safeParse({ operators: [{ name: 'x', role: 'viewer', token: ALICE }, { name: 'X', role: 'admin', token: BOB }] }).success).toBe(false);
  });
});
