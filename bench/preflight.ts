/**
 * Pre-flights 10,000 rows against the reference server (in-process, 20,000 generated users) and prints the API
 * calls spent. Goal: ≤ 100. Usage: bin/seatflow-dev bench/preflight.ts [ROWS] [USERS]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { loadManifest } from '../src/manifest/load-manifest.js';
import { preflight } from '../src/plan/preflight.js';
import { startReferenceServer } from '../src/server/start-reference-server.js';

const rows = Number(process.argv[2] ?? 10_000);
const users = Number(process.argv[3] ?? 20_000);
const sim = await startReferenceServer({ users, rateLimit: 'off' });
const api = createSmartsheetClient({ baseUrl: sim.url, accessToken: sim.tokens.admin, integrationOrg: '', timeouts: { connectMs: 5000, headersMs: 60000, bodyMs: 60000 } });
const dir = mkdtempSync(path.join(tmpdir(), 'seatflow-preflight-'));
try {
  const everyone: { email: string }[] = [];
  for await (const user of api.users.list({ pageSize: 2000 })) if (/\.\d+@acme\.example$/.test(user.email)) everyone.push(user);
  if (everyone.length < rows + 1) throw new Error(`only ${everyone.length} generated users; raise USERS`);
  const heir = everyone[rows]!.email;
  const lines = ['email,action,transferTo,seatType'];
  for (let i = 0; i < rows; i += 1) {
    const email = everyone[i]!.email;
    // A realistic mix: offboarding (deactivate, remove with transfer) and license reconciliation (downgrade).
    lines.push(i % 3 === 0 ? `${email},deactivate,,` : i % 3 === 1 ? `${email},remove,${heir},` : `${email},downgrade,,VIEWER`);
  }
  const file = path.join(dir, 'manifest.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const manifest = await loadManifest({ path: file });
  const started = performance.now();
  const plan = await preflight(manifest, { api });
  const seconds = (performance.now() - started) / 1000;
  console.log(`preflight: ${rows.toLocaleString('en-US')} rows against an organization of ${plan.organizationUsers?.toLocaleString('en-US')} users`);
  console.log(`  verdicts: ${JSON.stringify(plan.summary)}`);
  console.log(`  API calls spent: ${plan.apiCalls} (goal ≤ 100), in ${seconds.toFixed(2)} s`);
  const batches = await preflight(await loadManifest({ path: file, content: `${lines.slice(0, 301).join('\n')}\n` }), { api });
  console.log(`  for comparison, 300 rows: ${batches.apiCalls} API calls`);
} finally {
  await api.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}
