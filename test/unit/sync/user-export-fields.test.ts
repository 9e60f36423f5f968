import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_EXPORT_FIELDS, needsOf, parseUserExportFields } from '../../../src/sync/user-export-fields.js';

describe('parseUserExportFields', () => {
  it('keeps the order asked for, each field once, whatever the case', () => {
    expect(parseUserExportFields(' email, SEATTYPE ,id,email')).toEqual(['email', 'seatType', 'id']);
  });

  it('gives the default set without --fields: no call per user in it', () => {
    const fields = parseUserExportFields(undefined);
    expect(fields).toEqual([...DEFAULT_USER_EXPORT_FIELDS]);
    expect(fields).not.toContain('alternateEmails');
    expect(needsOf(fields)).toEqual({ seats: true, lastLogin: true, alternateEmails: false, groupsOwned: true });
  });

  it('refuses an unknown field and names the closest one', () => {
    expect(() => parseUserExportFields('email,lastlogn')).toThrow(/no field "lastlogn" \(did you mean "lastLogin"\?\)/);
    expect(() => parseUserExportFields(' , ')).toThrow(/names no field/);
  });
});

describe('needsOf', () => {
  it('asks for seats only with a seat field, and for a call per user only with alternateEmails', () => {
    expect(needsOf(['email', 'status'])).toEqual({ seats: false, lastLogin: false, alternateEmails: false, groupsOwned: false });
    expect(needsOf(['email', 'isInternal'])).toMatchObject({ seats: true, alternateEmails: false });
    expect(needsOf(['alternateEmails'])).toMatchObject({ seats: false, alternateEmails: true });
  });
});
