import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { ControlError } from '../../../src/control/control-error.js';
import { createParseThread, type ParseThread } from '../../../src/control/parse-off-thread/parse-thread.js';
import { ManifestFileError } from '../../../src/manifest/manifest-file-error.js';
import { ManifestRefusedError } from '../../../src/plan/manifest-refused-error.js';
import { auth, controlDeps } from './control-test-deps.js';

let thread: ParseThread | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await thread?.close();
  await app?.close();
  thread = undefined;
  app = undefined;
});

const manifest = (rows: number) => Buffer.from(`email,action\n${Array.from({ length: rows }, (_, i) => `user.${i}@acme.example,deactivate`).join('\n')}\n`);
const manifestTask = (content: Buffer, maxPlanRows = 1000) => ({ kind: 'manifest' as const, options: { path: 'm.csv', content, maxRows: 1_000_000 }, maxPlanRows });

describe('createParseThread', () => {
  it('parses on the worker thread from minBytes on, with the same result as on the calling thread', async () => {
    thread = createParseThread({ minBytes: 1 });
    const here = createParseThread({ minBytes: Number.POSITIVE_INFINITY });
    const [off, on] = await Promise.all([thread.run(manifestTask(manifest(50))), here.run(manifestTask(manifest(50)))]);
    expect(thread.offThread).toBe(1);
    expect(here.offThread).toBe(0);
    expect(off).toEqual(on);
    expect(off.rows).toHaveLength(50);
    const leavers = await thread.run({ kind: 'leavers', options: { path: 'leavers.csv', content: Buffer.from('email,leaveDate\nana@acme.example,2026-12-01T00:00:00Z\n') }, maxPlanRows: 10 });
    expect(leavers.leavers).toEqual([expect.objectContaining({ row: 1, email: 'ana@acme.example', leaveAt: Date.parse('2026-12-01T00:00:00.000Z') })]);
    await here.close();
  });

  it('stops reading a manifest at the first row over the limit and answers 413, on either thread', async () => {
    for (const minBytes of [1, Number.POSITIVE_INFINITY]) {
      thread = createParseThread({ minBytes });
      const error = await thread.run(manifestTask(manifest(11), 10)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ControlError);
      expect(error).toMatchObject({ statusCode: 413, code: 'MANIFEST_TOO_LARGE', message: expect.stringContaining('more than 10 rows'), hint: expect.stringContaining('seatflow submit FILE') });
      const leavers = await thread
        .run({ kind: 'leavers', options: { path: 'l.csv', content: Buffer.from('email\na@acme.example\nb@acme.example\n') }, maxPlanRows: 1 })
        .catch((caught: unknown) => caught);
      expect(leavers).toMatchObject({ statusCode: 413, message: expect.stringContaining('the leavers file has more than 1 rows'), hint: expect.stringContaining('seatflow offboard FILE') });
      await thread.close();
    }
  });

  it('brings the errors of the parse back as the classes the caller knows, word for word', async () => {
    thread = createParseThread({ minBytes: 1 });
    const unreadable = await thread.run(manifestTask(Buffer.from('email,action\n"unbalanced,deactivate\n'))).catch((caught: unknown) => caught);
    expect(unreadable).toBeInstanceOf(ManifestFileError);
    const refused = await thread.run({ kind: 'leavers', options: { path: 'l.csv', content: Buffer.from('email\nnot-an-email\n') }, maxPlanRows: 10 }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ManifestRefusedError);
    expect((refused as ManifestRefusedError).problems).toEqual([expect.objectContaining({ row: 1, field: 'email' })]);
    expect((refused as Error).message).toMatch(/^manifest refused \(1 invalid row\)/);
  });
});

describe('POST /v1/plans of a large manifest', () => {
  it('refuses more rows than control.maxPlanRows with 413 and what to do, and plans up to it', async () => {
    app = buildControlApp(controlDeps({ maxPlanRows: 3 }));
    const response = await app.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: manifest(4) });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: 'MANIFEST_TOO_LARGE', maxRows: 3, hint: expect.stringContaining('split it into files of at most 3 rows') });
    const submit = await app.inject({ method: 'POST', url: '/v1/batches', headers: { ...auth, 'content-type': 'text/csv' }, payload: manifest(4) });
    expect(submit.statusCode).toBe(413);
  });
});
