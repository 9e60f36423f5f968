import { describe, expect, it } from 'vitest';
import { alternateEmailSchema, userProfileSchema, userSchema } from '../../../src/contract/index.js';
import { readBare, readDone, readIndexResult, readResultList, readResultObject, readTokenPage } from '../../../src/client/envelope-readers.js';

const user = { id: 4583173393803140, email: 'dana.whitfield@acme.example', name: 'Dana Whitfield' };
const alt = { id: 1234567890123456, email: 'chris.m@acme.example', confirmed: true };

describe('readResultObject', () => {
  const read = readResultObject(userSchema);

  it('reads `result` as an object (the SDK side, docs/service.md#envelopes)', () => {
    expect(read({ message: 'SUCCESS', resultCode: 0, result: user })).toEqual(user);
  });

  it('reads `data` as a one-element array (the OA24/MOCK25 side)', () => {
    expect(read({ message: 'SUCCESS', resultCode: 0, data: [user] })).toEqual(user);
  });

  it('reads `result` as a one-element array and `data` as an object', () => {
    expect(read({ result: [user] })).toEqual(user);
    expect(read({ data: user })).toEqual(user);
  });

  it('refuses a list of several where one object is expected', () => {
    expect(() => read({ result: [user, user] })).toThrow(/one object.*list of 2/);
  });

  it('refuses an envelope without result or data', () => {
    expect(() => read({ message: 'SUCCESS', resultCode: 0 })).toThrow(/neither `result` nor `data`/);
  });

  it('refuses an object that does not match the wire', () => {
    expect(() => read({ result: { id: 'x', email: 3 } })).toThrow();
  });
});

describe('readResultList', () => {
  const read = readResultList(alternateEmailSchema);

  it('reads `result` or `data` as an array, and a lone object as a list of one', () => {
    expect(read({ result: [alt] })).toEqual([alt]);
    expect(read({ data: [alt, { ...alt, id: 2 }] })).toHaveLength(2);
    expect(read({ result: alt })).toEqual([alt]);
  });
});

describe('readDone', () => {
  it('accepts {message, resultCode} and an empty body', () => {
    expect(readDone({ message: 'SUCCESS', resultCode: 0 })).toBeUndefined();
    expect(readDone(undefined)).toBeUndefined();
  });
});

describe('readIndexResult', () => {
  const read = readIndexResult(userSchema);

  it('reads an IndexResult and one without pageSize (includeAll)', () => {
    expect(read({ pageNumber: 1, pageSize: 100, totalPages: 1, totalCount: 1, data: [user] }).data).toEqual([user]);
    expect(read({ pageNumber: 1, totalPages: 1, totalCount: 1, data: [user] }).pageSize).toBeUndefined();
  });

  it('reads the unknown-pages variant with -1 totals', () => {
    expect(read({ pageNumber: 2, pageSize: 10, totalPages: -1, totalCount: -1, data: [] }).totalPages).toBe(-1);
  });
});

describe('readTokenPage', () => {
  it('reads a page with and without lastKey', () => {
    const read = readTokenPage(alternateEmailSchema);
    expect(read({ lastKey: 'k1', data: [alt] }).lastKey).toBe('k1');
    expect(read({ data: [] }).lastKey).toBeUndefined();
  });
});

describe('readBare', () => {
  it('reads a bare object and drops unknown fields', () => {
    expect(readBare(userProfileSchema)({ ...user, somethingNew: 1 })).toEqual(user);
  });
});
