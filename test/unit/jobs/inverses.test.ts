import { describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../../jobs/registry.js';
import { ACTION_NAMES, type Action, type ActionName } from '../../../src/manifest/action.js';
import type { InverseFacts, RowInverse } from '../../../src/queue/job-type.js';

const registry = createJobRegistry();
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12);

function inverseOf(action: Action, facts: Partial<InverseFacts> = {}): RowInverse {
  const job = registry.get(action.action);
  if (job?.inverse === undefined) throw new Error(`no inverse for ${action.action}`);
  return job.inverse({ action, target: { userId: 42, email: 'riley.owens@acme.example', planId: 7 }, before: undefined, detail: undefined, changedAtMs: NOW - DAY, nowMs: NOW, reactivationWindowMs: 30 * DAY, ...facts });
}

const user = { email: 'riley.owens@acme.example' };
const sameUser = { userId: 42, email: 'riley.owens@acme.example' };

describe('the inverse of each job type (seatflow revert)', () => {
  it('is defined for every action', () => {
    for (const name of ACTION_NAMES) expect(registry.get(name as ActionName)?.inverse, name).toBeTypeOf('function');
  });

  it('gives a downgraded user their seat back with an upgrade, and says admin status is not given back', () => {
    const downgrade: Action = { action: 'downgrade', user, seatType: 'CONTRIBUTOR', removeAdminStatus: true };
    expect(inverseOf(downgrade, { before: { planId: 7, seatType: 'MEMBER', admin: true } })).toEqual({
      kind: 'actions',
      actions: [{ action: 'upgrade', user: sameUser, planId: 7, seatType: 'MEMBER' }],
      notes: ['the downgrade also removed admin status; the revert gives the seat back, not admin status (an update row with admin=true does)'],
    });
    expect(inverseOf({ action: 'downgrade', user, seatType: 'CONTRIBUTOR' }, { before: { planId: 7, seatType: 'GUEST' } })).toMatchObject({ actions: [{ action: 'upgrade', seatType: 'GUEST' }] });
  });

  it('refuses to give back a Provisional Member seat (an upgrade gives a full one), or a seat nobody recorded', () => {
    expect(inverseOf({ action: 'downgrade', user, seatType: 'CONTRIBUTOR' }, { before: { planId: 7, seatType: 'PROVISIONAL_MEMBER' } })).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/Provisional Member/) });
    expect(inverseOf({ action: 'downgrade', user, seatType: 'CONTRIBUTOR' })).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/recordStateBefore/) });
  });

  it('downgrades an upgraded user back to CONTRIBUTOR (VIEWER recorded before) or GUEST', () => {
    expect(inverseOf({ action: 'upgrade', user, seatType: 'MEMBER' }, { before: { planId: 7, seatType: 'VIEWER' } })).toEqual({ kind: 'actions', actions: [{ action: 'downgrade', user: sameUser, planId: 7, seatType: 'CONTRIBUTOR' }] });
    expect(inverseOf({ action: 'upgrade', user, seatType: 'MEMBER' }, { before: { planId: 7, seatType: 'MEMBER' } }).kind).toBe('refused');
  });

  it('reactivates a deactivated user within the reactivation window, and refuses past it', () => {
    const deactivate: Action = { action: 'deactivate', user };
    expect(inverseOf(deactivate, { before: { seatType: 'MEMBER' } })).toEqual({ kind: 'actions', actions: [{ action: 'reactivate', user: sameUser }] });
    expect(inverseOf(deactivate, { before: { seatType: 'VIEWER' } })).toMatchObject({ notes: [expect.stringMatching(/reactivates with a Member seat; before the batch the user held VIEWER/)] });
    expect(inverseOf(deactivate, { changedAtMs: NOW - 31 * DAY })).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/more than the service's 30-day reactivation window ago/) });
  });

  it('removes an added user, deletes an added alternate address, deletes an added column', () => {
    expect(inverseOf({ action: 'add', user: { email: 'new.hire@acme.example' } })).toMatchObject({ actions: [{ action: 'remove', user: { email: 'new.hire@acme.example' } }] });
    expect(inverseOf({ action: 'add-alternate-email', user, alternateEmail: 'r.owens@acme.example' })).toEqual({ kind: 'actions', actions: [{ action: 'delete-alternate-email', user: sameUser, alternateEmail: 'r.owens@acme.example' }] });
    const added: Action = { action: 'add-column', sheetId: 99, title: 'Asset Tag', type: 'TEXT_NUMBER', index: 0 };
    expect(inverseOf(added, { detail: { columnId: 555 } })).toMatchObject({ actions: [{ action: 'delete-column', sheetId: 99, columnId: 555 }] });
    expect(inverseOf(added)).toMatchObject({ actions: [{ action: 'delete-column', sheetId: 99, columnTitle: 'Asset Tag' }] });
  });

  it('restores a column: the fields the update changed, back to what they were, with the type', () => {
    const update: Action = { action: 'update-column', sheetId: 99, columnTitle: 'Notes', title: 'Comments', width: 300, hidden: true };
    expect(inverseOf(update, { before: { columnId: 555, type: 'TEXT_NUMBER', title: 'Notes', width: 150, hidden: false, locked: false } })).toEqual({
      kind: 'actions',
      actions: [{ action: 'update-column', sheetId: 99, columnId: 555, type: 'TEXT_NUMBER', title: 'Notes', width: 150, hidden: false }],
    });
  });

  it('puts back a profile\'s fields and a primary address as they were', () => {
    expect(inverseOf({ action: 'update', user, firstName: 'Riley', admin: true }, { before: { firstName: 'Ri', admin: false } })).toEqual({ kind: 'actions', actions: [{ action: 'update', user: sameUser, firstName: 'Ri', admin: false }] });
    expect(inverseOf({ action: 'make-alternate-email-primary', user, alternateEmail: 'r.owens@acme.example' }, { before: { primaryEmail: 'Riley.Owens@acme.example' } })).toEqual({
      kind: 'actions',
      // Named by id with the address it made primary: the user's primary when the revert is planned.
      actions: [{ action: 'make-alternate-email-primary', user: { ...sameUser, email: 'r.owens@acme.example' }, alternateEmail: 'riley.owens@acme.example' }],
    });
  });

  it('turns a webhook back on or off', () => {
    expect(inverseOf({ action: 'disable-webhook', webhookId: 77 })).toEqual({ kind: 'actions', actions: [{ action: 'enable-webhook', webhookId: 77 }] });
    expect(inverseOf({ action: 'enable-webhook', webhookId: 77 })).toEqual({ kind: 'actions', actions: [{ action: 'disable-webhook', webhookId: 77 }] });
  });

  it('refuses what cannot be undone, with the reason', () => {
    const refused: Array<[Action, RegExp]> = [
      [{ action: 'remove', user }, /a removal cannot be undone/],
      [{ action: 'delete-webhook', webhookId: 77 }, /a deleted webhook cannot be restored/],
      [{ action: 'reset-webhook-secret', webhookId: 77 }, /old shared secret cannot be restored/],
      [{ action: 'delete-column', sheetId: 99, columnId: 555 }, /a deleted column cannot be restored/],
      [{ action: 'remove-from-plan', user }, /no action puts a user back into a plan/],
      [{ action: 'delete-alternate-email', user, alternateEmail: 'r.owens@acme.example' }, /must confirm it again/],
      [{ action: 'set-profile-image', user, image: 'riley.png' }, /image before cannot be put back/],
      [{ action: 'create-discussion', sheetId: 99, comment: 'hello' }, /no seatflow action deletes a discussion/],
    ];
    for (const [action, reason] of refused) expect(inverseOf(action), action.action).toEqual({ kind: 'refused', reason: expect.stringMatching(reason) });
  });
});
