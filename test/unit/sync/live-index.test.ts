import { describe, expect, it } from 'vitest';
import { LiveIndex } from '../../../src/sync/live-index.js';
import type { LiveMember } from '../../../src/sync/live-member.js';

describe('LiveIndex', () => {
  it('gives back each member as it was set, by e-mail and in the order set, a member set again in its first place', () => {
    const index = new LiveIndex();
    const members: LiveMember[] = [
      { id: 4_503_599_627_370_495, email: 'ann@acme.example', status: 'ACTIVE', admin: true, seat: 'MEMBER' },
      { id: 2, email: 'bob@acme.example', status: 'DEACTIVATED', admin: false, seat: 'CONTRIBUTOR' },
      { id: 3, email: 'cat@acme.example' },
      // A status the service added since is kept as it came.
      { id: 4, email: 'dan@acme.example', status: 'ON_LEAVE' as LiveMember['status'], seat: 'GUEST' },
    ];
    for (const member of members) index.set(member);
    index.set({ ...members[1]!, status: 'ACTIVE', seat: 'MEMBER' });
    const expected = [members[0], { ...members[1], status: 'ACTIVE', seat: 'MEMBER' }, members[2], members[3]];
    expect(index.size).toBe(4);
    expect([...index.values()]).toStrictEqual(expected);
    expect(index.get('cat@acme.example')).toStrictEqual({ id: 3, email: 'cat@acme.example' });
    expect(index.get('CAT@acme.example')).toBeUndefined();
  });

  it('holds a large organization', () => {
    const index = new LiveIndex();
    for (let i = 0; i < 50_000; i += 1) index.set({ id: 10_000_000_000 + i, email: `user.${i}@acme.example`, status: i % 5 === 0 ? 'DEACTIVATED' : 'ACTIVE', admin: i === 7, seat: i % 2 === 0 ? 'MEMBER' : 'CONTRIBUTOR' });
    expect(index.get('user.49999@acme.example')).toStrictEqual({ id: 10_000_049_999, email: 'user.49999@acme.example', status: 'ACTIVE', admin: false, seat: 'CONTRIBUTOR' });
    expect(index.get('user.7@acme.example')?.admin).toBe(true);
    expect([...index.values()].filter((member) => member.status === 'DEACTIVATED')).toHaveLength(10_000);
  });
});
