import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

const BOUNDARY = '----seatflow-test';

function multipart(parts: { name?: string; filename?: string; type: string; content: string }[]): string {
  const chunks = parts.map((p) => {
    const name = p.name === undefined ? '' : `; name="${p.name}"`;
    const file = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    return `--${BOUNDARY}\r\nContent-Disposition: form-data${name}${file}\r\nContent-Type: ${p.type}\r\n\r\n${p.content}\r\n`;
  });
  return `${chunks.join('')}--${BOUNDARY}--\r\n`;
}

const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const discussionPart = { name: 'discussion', type: 'application/json', content: JSON.stringify({ comment: { text: 'See the attached quote.' } }) };
const filePart = { name: 'file', filename: 'quote.pdf', type: 'application/pdf', content: '%PDF-1.4 fake' };

describe('sheet discussions', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const url = `/2.0/sheets/${DEMO.apolloSheetId}/discussions`;

  it('lists sheet-level and row-level discussions', async () => {
    sim = createTestServer();
    const res = await sim.call('GET', `${url}?include=comments`);
    const data = res.body.data as { parentType: string; comments: unknown[] }[];
    expect(data.map((d) => d.parentType).sort()).toEqual(['ROW', 'SHEET']);
    expect(data[0]?.comments.length).toBeGreaterThan(0);
  });

  it('leaves comments out without include', async () => {
    sim = createTestServer();
    const res = await sim.call('GET', url);
    expect((res.body.data as object[])[0]).not.toHaveProperty('comments');
  });

  it('creates a discussion from JSON with a title from the comment', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', url, { body: { comment: { text: 'Budget approved.' } } });
    expect(res.status).toBe(200);
    const result = res.body.result as { id: number; title: string; parentType: string };
    expect([result.title, result.parentType]).toEqual(['Budget approved.', 'SHEET']);
    expect((await sim.call('GET', `${url}/${result.id}`)).status).toBe(200);
  });

  it('creates a discussion with an attachment from multipart', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', url, { headers, payload: multipart([discussionPart, filePart]) });
    expect(res.status).toBe(200);
    const result = res.body.result as { commentAttachments: { name: string; mimeType: string }[] };
    expect(result.commentAttachments[0]).toMatchObject({ name: 'quote.pdf', mimeType: 'application/pdf' });
  });

  it.each([
    ['a missing file part', [discussionPart], 1127],
    ['a duplicate part', [discussionPart, discussionPart, filePart], 1126],
    ['an unknown part name', [discussionPart, filePart, { name: 'extra', type: 'text/plain', content: 'x' }], 1147],
    ['a discussion part that is not JSON', [{ ...discussionPart, content: '{nope' }, filePart], 1008],
  ])('refuses %s', async (_label, parts, code) => {
    sim = createTestServer();
    const res = await sim.call('POST', url, { headers, payload: multipart(parts) });
    expect([res.status, res.body.errorCode]).toEqual([400, code]);
  });

  it('refuses a broken multipart body without dying', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', url, { headers, payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="discussion"\r\n\r\n{"comment"` });
    expect(res.status).toBe(400);
    expect((await sim.call('GET', url)).status).toBe(200);
  });

  it('counts an upload as 10 requests against the rate limit', async () => {
    sim = createTestServer({ rateLimit: { requests: 12, perSeconds: 60 } });
    expect((await sim.call('POST', url, { headers, payload: multipart([discussionPart, filePart]) })).status).toBe(200);
    expect((await sim.call('GET', url)).status).toBe(200);
    expect((await sim.call('GET', url)).status).toBe(200);
    expect((await sim.call('GET', url)).status).toBe(429);
  });

  it('deletes a discussion, then answers 404', async () => {
    sim = createTestServer();
    const list = await sim.call('GET', url);
    const id = (list.body.data as { id: number }[])[0]!.id;
    expect((await sim.call('DELETE', `${url}/${id}`)).status).toBe(200);
    expect((await sim.call('GET', `${url}/${id}`)).status).toBe(404);
  });
});
