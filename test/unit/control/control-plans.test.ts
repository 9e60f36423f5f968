import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import type { ControlDeps } from '../../../src/control/control-deps.js';
import { startContractServer, type ContractServer } from '../../helpers/contract-server.js';
import { auth, controlDeps } from './control-test-deps.js';
import { ROOT } from '../../helpers/run-seatflow.js';

let server: ContractServer;
let app: FastifyInstance;
const deps = (overrides: Partial<ControlDeps> = {}): ControlDeps => controlDeps({ api: server.admin, ...overrides });

beforeAll(async () => {
  server = await startContractServer();
  app = buildControlApp(deps());
});
afterAll(async () => {
  await app.close();
  await server.close();
});

const csv = (...lines: string[]) => `${lines.join('\n')}\n`;
const postPlan = (payload: string, contentType = 'text/csv', query = '') =>
  app.inject({ method: 'POST', url: `/v1/plans${query}`, headers: { ...auth, 'content-type': contentType }, payload });

describe('POST /v1/plans', () => {
  it('pre-flights a CSV manifest and answers the plan as `seatflow plan --json` prints it', async () => {
    const response = await postPlan(csv('email,action', 'marcus.chen@acme.example,deactivate', 'taylor.brooks@acme.example,deactivate', 'sam.taylor@gmail.com,deactivate', 'nobody.here@acme.example,deactivate'));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.target).toBe('test target');
    expect(body.summary).toMatchObject({ total: 4, change: 1, 'no-op': 1, refused: 1, 'not-found': 1 });
    expect(body.rows.map((row: { verdict: string }) => row.verdict)).toEqual(['change', 'no-op', 'refused', 'not-found']);
    expect(body.guardrails).toMatchObject({ destructiveCount: 1, needsConfirmation: false });
    expect(body.source).toMatchObject({ path: 'manifest.csv', format: 'csv', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(body.warnings).toEqual([]);
  });

  it('says the calls applying the plan makes at the configured rate: one per row to change', async () => {
    const rows = await readFile(path.join(ROOT, 'jobs/examples/hr-offboarding.csv'), 'utf8');
    const body = (await postPlan(rows)).json();
    expect(body.summary).toMatchObject({ total: 7, change: 3 });
    expect(body.calls).toEqual({ toApply: 3, expectedSeconds: 0.6, rate: { requests: 300, perSeconds: 60 } });
    const slow = buildControlApp(deps({ rate: { requests: 1, perSeconds: 20 } }));
    const paced = await slow.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: rows });
    expect(paced.json().calls).toEqual({ toApply: 3, expectedSeconds: 60, rate: { requests: 1, perSeconds: 20 } });
    await slow.close();
  });

  it('reads JSON and JSON Lines bodies by their Content-Type, and names the manifest from ?name=', async () => {
    const json = await postPlan(JSON.stringify({ rows: [{ email: 'marcus.chen@acme.example', action: 'deactivate' }] }), 'application/json; charset=utf-8', '?name=offboarding.json');
    expect(json.statusCode).toBe(200);
    expect(json.json().source).toMatchObject({ path: 'offboarding.json', format: 'json' });
    const jsonl = await postPlan('{"email":"marcus.chen@acme.example","action":"deactivate"}\n', 'application/x-ndjson');
    expect(jsonl.statusCode).toBe(200);
    expect(jsonl.json().summary.change).toBe(1);
  });

  it('plans with the target\'s region and external sources, as seatflow plan does (docs/service.md#regions)', async () => {
    const gov = buildControlApp(deps({ service: { region: 'GOV', externalSources: [{ name: 'Okta', domains: [], emails: ['jordan.lee@acme.example'] }] } }));
    try {
      const response = await gov.inject({
        method: 'POST',
        url: '/v1/plans',
        headers: { ...auth, 'content-type': 'text/csv' },
        payload: csv('email,action', 'marcus.chen@acme.example,deactivate', 'jordan.lee@acme.example,remove'),
      });
      expect(response.json().rows.map((row: { rule?: string }) => row.rule)).toEqual(['unavailable-on-gov', 'externally-managed']);
    } finally {
      await gov.close();
    }
  });

  it('applies ?action= to rows that name none', async () => {
    const response = await postPlan(csv('email', 'marcus.chen@acme.example'), 'text/csv', '?action=deactivate');
    expect(response.statusCode).toBe(200);
    expect(response.json().rows[0]).toMatchObject({ actionName: 'deactivate', verdict: 'change' });
  });

  it('refuses an invalid manifest with 422 and every problem with row, line and field', async () => {
    const response = await postPlan(csv('email,action', 'not-an-email,deactivate', 'marcus.chen@acme.example,deactivate', 'x@acme.example,explode'));
    expect(response.statusCode).toBe(422);
    const { error } = response.json();
    expect(error.code).toBe('MANIFEST_REFUSED');
    expect(error.hint).toContain('skipInvalid=true');
    expect(error.problems).toEqual([
      { row: 1, line: 2, field: 'email', message: expect.stringContaining('not a valid e-mail') },
      { row: 3, line: 4, field: 'action', message: expect.stringContaining('unknown action "explode"') },
    ]);
  });

  it('goes on with the valid rows with ?skipInvalid=true, listing the others as invalid', async () => {
    const response = await postPlan(csv('email,action', 'not-an-email,deactivate', 'marcus.chen@acme.example,deactivate'), 'text/csv', '?skipInvalid=true');
    expect(response.statusCode).toBe(200);
    expect(response.json().summary).toMatchObject({ total: 2, change: 1, invalid: 1 });
  });

  it('refuses a manifest that cannot be read as a whole with a row-0 problem', async () => {
    const response = await postPlan('{"rows": [', 'application/json');
    expect(response.statusCode).toBe(422);
    expect(response.json().error.problems).toEqual([expect.objectContaining({ row: 0 })]);
  });

  it('refuses rows that name a file on the server disk', async () => {
    const response = await postPlan(csv('email,action,image', 'marcus.chen@acme.example,set-profile-image,/etc/seatflow/face.png'));
    expect(response.statusCode).toBe(422);
    expect(response.json().error.problems).toEqual([{ row: 1, line: 2, field: 'image', message: expect.stringContaining("server's disk") }]);
  });

  it('answers 400 for an empty body and for an unknown ?action=', async () => {
    const empty = await postPlan('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({ code: 'BAD_REQUEST', message: 'the request has no manifest in its body' });
    const badAction = await postPlan(csv('email', 'a@acme.example'), 'text/csv', '?action=explode');
    expect(badAction.statusCode).toBe(400);
    expect(badAction.json().error.message).toMatch(/^bad request: query\.action/);
  });

  it('answers 415 for a body that is not a manifest format', async () => {
    const response = await postPlan('<html></html>', 'text/html');
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', hint: expect.stringContaining('text/csv') });
  });

  it('answers 413 for a body over the limit', async () => {
    const small = buildControlApp(deps({ bodyLimitBytes: 64 }));
    try {
      const response = await small.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: csv('email,action', ...Array.from({ length: 10 }, (_, i) => `u${i}@acme.example,deactivate`)) });
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('BODY_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  it('answers 503 when no access token is configured for the target', async () => {
    const unconfigured = buildControlApp(deps({ target: { label: 'x', id: 'x', configured: false, sim: false } }));
    try {
      const response = await unconfigured.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: csv('email,action', 'marcus.chen@acme.example,deactivate') });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatchObject({ code: 'TARGET_NOT_CONFIGURED', hint: expect.stringContaining('SMARTSHEET_ACCESS_TOKEN') });
    } finally {
      await unconfigured.close();
    }
  });

  it('answers 502 naming the token when the service refuses the pre-flight', async () => {
    const refused = buildControlApp(deps({ api: server.client('not-a-real-token') }));
    try {
      const response = await refused.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: csv('email,action', 'marcus.chen@acme.example,deactivate') });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toMatchObject({ code: 'TARGET_ERROR', category: 'Authorization', hint: expect.stringContaining('SMARTSHEET_ACCESS_TOKEN') });
    } finally {
      await refused.close();
    }
  });
});
