import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, actionSchema, DESTRUCTIVE_ACTIONS } from '../../../src/manifest/action.js';
import { validateRow } from '../../../src/manifest/validate-row.js';

const context = {};

describe('actionSchema', () => {
  const valid: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['add', { email: 'New.Hire@Acme.Example', firstName: 'New', lastName: 'Hire', admin: 'no', licensedSheetCreator: 'yes', groupAdmin: 'false', resourceViewer: '0', sendEmail: 'TRUE', allowInviteAccountAdmin: 'true' },
      { user: { email: 'new.hire@acme.example' }, firstName: 'New', lastName: 'Hire', admin: false, licensedSheetCreator: true, groupAdmin: false, resourceViewer: false, sendEmail: true, allowInviteAccountAdmin: true }],
    ['update', { userId: '5010000000000001', firstName: 'Dana' }, { user: { userId: 5010000000000001 }, firstName: 'Dana' }],
    ['deactivate', { email: 'marcus.chen@acme.example' }, { user: { email: 'marcus.chen@acme.example' } }],
    ['reactivate', { userId: 42 }, { user: { userId: 42 } }],
    ['remove', { email: 'jordan.lee@acme.example', transferTo: 'dana.whitfield@acme.example', transferSheets: 'true', removeFromSharing: 'true' },
      { user: { email: 'jordan.lee@acme.example' }, transferTo: { email: 'dana.whitfield@acme.example' }, transferSheets: true, removeFromSharing: true }],
    ['remove', { email: 'jordan.lee@acme.example', transferTo: '5010000000000002' }, { user: { email: 'jordan.lee@acme.example' }, transferTo: { userId: 5010000000000002 } }],
    ['downgrade', { email: 'elena.garcia@acme.example', planId: '5420192837465012', seatType: 'contributor', removeAdminStatus: 'yes' },
      { user: { email: 'elena.garcia@acme.example' }, planId: 5420192837465012, seatType: 'CONTRIBUTOR', removeAdminStatus: true }],
    ['downgrade', { email: 'riley.owens@acme.example' }, { user: { email: 'riley.owens@acme.example' }, seatType: 'CONTRIBUTOR' }],
    ['upgrade', { email: 'casey.nguyen@acme.example', seatType: 'GUEST' }, { user: { email: 'casey.nguyen@acme.example' }, seatType: 'GUEST' }],
    ['upgrade', { email: 'casey.nguyen@acme.example' }, { user: { email: 'casey.nguyen@acme.example' }, seatType: 'MEMBER' }],
    ['remove-from-plan', { email: 'noah.fischer@acme.example', planId: '5420192837465013' }, { user: { email: 'noah.fischer@acme.example' }, planId: 5420192837465013 }],
    ['add-alternate-email', { email: 'a@acme.example', alternateEmail: 'A@Labs.Acme.Example' }, { user: { email: 'a@acme.example' }, alternateEmail: 'a@labs.acme.example' }],
    ['delete-alternate-email', { email: 'a@acme.example', alternateEmail: 'b@acme.example' }, { user: { email: 'a@acme.example' }, alternateEmail: 'b@acme.example' }],
    ['make-alternate-email-primary', { email: 'chris.morgan@acme.example', alternateEmail: 'chris.m@acme.example' }, { user: { email: 'chris.morgan@acme.example' }, alternateEmail: 'chris.m@acme.example' }],
    ['set-profile-image', { email: 'a@acme.example', image: 'img/a.png' }, { user: { email: 'a@acme.example' }, image: 'img/a.png' }],
    ['add-column', { sheetId: '2094857361029384', title: 'Assigned On', type: 'DATE', index: '5', options: 'x | y', width: '120', hidden: 'no' },
      { sheetId: 2094857361029384, title: 'Assigned On', type: 'DATE', index: 5, options: ['x', 'y'], width: 120, hidden: false }],
    ['update-column', { sheetId: 1, columnTitle: 'Status', type: 'PICKLIST', options: ['In use', 'Spare'] }, { sheetId: 1, columnTitle: 'Status', type: 'PICKLIST', options: ['In use', 'Spare'] }],
    ['update-column', { sheetId: 1, columnId: '7', title: 'Comments' }, { sheetId: 1, columnId: 7, title: 'Comments' }],
    ['delete-column', { sheetId: 1, columnId: 7 }, { sheetId: 1, columnId: 7 }],
    ['create-discussion', { sheetId: 1, comment: 'hello', file: 'notes.pdf' }, { sheetId: 1, comment: 'hello', file: 'notes.pdf' }],
    ['enable-webhook', { webhookId: '123' }, { webhookId: 123 }],
    ['disable-webhook', { webhookId: 123 }, { webhookId: 123 }],
    ['reset-webhook-secret', { webhookId: 123 }, { webhookId: 123 }],
    ['reset-webhook-secret', { webhookId: 123, secretTo: '/srv/secrets/webhooks.jsonl' }, { webhookId: 123, secretTo: '/srv/secrets/webhooks.jsonl' }],
    ['delete-webhook', { webhookId: 123 }, { webhookId: 123 }],
    ['update-webhook', { webhookId: 123, callbackUrl: 'https://hooks.acme.io/assets', enabled: 'yes' }, { webhookId: 123, callbackUrl: 'https://hooks.acme.io/assets', enabled: true }],
  ];
  for (const [action, fields, expected] of valid) {
    it(`parses ${action} with ${Object.keys(fields).join(', ')}`, () => {
      const result = validateRow({ action, ...fields }, context);
      expect(result).toEqual({ ok: true, action: { action, ...expected } });
      // Jobs may re-parse what the manifest produced: parsing is idempotent.
      if (result.ok) expect(actionSchema.parse(result.action)).toEqual(result.action);
    });
  }

  it('covers every action name', () => {
    expect(new Set(valid.map(([name]) => name))).toEqual(new Set(ACTION_NAMES));
    expect([...DESTRUCTIVE_ACTIONS].every((name) => (ACTION_NAMES as readonly string[]).includes(name))).toBe(true);
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ['deactivate', {}, /name the user with email or userId/],
    ['add', { userId: 5 }, /add needs the new user's email/],
    ['update', { email: 'a@acme.example' }, /update needs at least one of/],
    ['remove', { email: 'a@acme.example', transferSheets: 'true' }, /^transferSheets: only works together with transferTo/],
    ['remove', { email: 'a@acme.example', transferTo: 'dana' }, /transferTo must be an e-mail address or a user id/],
    ['downgrade', { email: 'a@acme.example', seatType: 'MEMBER' }, /^seatType: "MEMBER" is not one of CONTRIBUTOR, GUEST, VIEWER$/],
    ['upgrade', { email: 'a@acme.example', seatType: 'VIEWER' }, /^seatType: "VIEWER" is not one of MEMBER, GUEST$/],
    ['deactivate', { email: 'a@acme.example', transferTo: 'b@acme.example' }, /transferTo does not apply to deactivate/],
    ['add-alternate-email', { email: 'a@acme.example' }, /^alternateEmail: missing: add-alternate-email needs it$/],
    ['set-profile-image', { email: 'a@acme.example', image: 'a.bmp' }, /^image: "a.bmp": a profile image is a .png, .jpg, .jpeg or .gif file$/],
    ['add-column', { sheetId: 1, title: 'X', index: 1 }, /^type: missing: add-column needs it$/],
    ['add-column', { sheetId: 1, title: 'X', index: 1, type: 'SPREADSHEET' }, /^type: "SPREADSHEET" is not one of TEXT_NUMBER, DATE/],
    ['update-column', { sheetId: 1, title: 'X' }, /name the column with columnId or columnTitle/],
    ['update-column', { sheetId: 1, columnId: 2, options: 'a|b' }, /^type: required when changing options/],
    ['create-discussion', { sheetId: 1 }, /^comment: missing: create-discussion needs it$/],
    ['enable-webhook', { webhookId: '9007199254740993' }, /too large to be kept exactly/],
    ['update-webhook', { webhookId: 1 }, /update-webhook needs callbackUrl, name or enabled/],
    ['update-webhook', { webhookId: 1, callbackUrl: 'ftp://hooks.acme.io' }, /^callbackUrl: .*not an http\(s\) URL/],
    ['reset-webhook-secret', { webhookId: 1, secretTo: 'secrets.jsonl' }, /^secretTo: .*an absolute path/],
    ['deactivate', { userId: 1.5 }, /is not an id/],
    ['update', { email: 'a@acme.example', admin: 'maybe' }, /"maybe" is not true or false/],
    // Issue 14: the value is shown, what is expected is said, the field is never repeated.
    ['add-column', { sheetId: 1, title: 'X', type: 'DATE', index: true }, /^index: true is not valid here: expected a whole number ≥ 0$/],
    ['add-alternate-email', { email: 'a@acme.example', alternateEmail: 'nope' }, /^alternateEmail: "nope" is not a valid e-mail address$/],
    ['update-column', { sheetId: 1, columnId: 2, hidden: 3 }, /^hidden: 3 is not valid here: expected true or false/],
    ['deactivate', { userId: 0 }, /^userId: "0" is not an id/],
    ['deactivate', { userId: '0' }, /^userId: "0" is not an id/],
  ];
  for (const [action, fields, message] of invalid) {
    it(`refuses ${action} with ${JSON.stringify(fields)}`, () => {
      const result = validateRow({ action, ...fields }, context);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems.map((p) => `${p.field}: ${p.message}`).join('\n')).toMatch(message);
    });
  }

  it('takes --action for rows that name none, and JSON defaults for empty fields', () => {
    const result = validateRow({ email: 'a@acme.example' }, { ...context, defaultAction: 'downgrade', defaults: { seatType: 'GUEST', planId: '5420192837465012' } });
    expect(result).toEqual({ ok: true, action: { action: 'downgrade', user: { email: 'a@acme.example' }, seatType: 'GUEST', planId: 5420192837465012 } });
  });

  it('reads action names written with spaces, underscores or capitals', () => {
    expect(validateRow({ action: 'Remove From_Plan', email: 'a@acme.example' }, context)).toMatchObject({ ok: true, action: { action: 'remove-from-plan' } });
  });
});
