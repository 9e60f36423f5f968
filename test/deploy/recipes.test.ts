import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/start-reference-server.js';
import { deactivatableEmails } from '../helpers/demo-users.js';
import { composeServices, kubernetesServices, parseEnvFile, systemdServices, type RecipeService } from '../helpers/recipe-services.js';
import { startRecipe, type RunningRecipe } from '../helpers/run-recipe.js';
import { ROOT } from '../helpers/run-seatflow.js';

// Each recipe of deploy/ as an operator would use it, without a container engine or systemd: every service's command
// line as written, with its environment, against a local Redis (the recipe's own redis-server command) and the
// reference server; each must start, answer its health check, and take a batch submitted to its control API.
const CONTROL_TOKEN = 'recipe-test-control-token-0123456789abcdef';
let server: RunningReferenceServer;
let work: string;
let running: RunningRecipe | undefined;
beforeEach(async () => {
  server = await startReferenceServer();
  work = await mkdtemp(path.join(tmpdir(), 'seatflow-recipe-'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** The operator's filled deploy/env.example: this test's target and tokens in place of the blanks. */
async function operatorEnv(): Promise<Record<string, string>> {
  const example = parseEnvFile(await readFile(path.join(ROOT, 'deploy/env.example'), 'utf8'));
  expect(Object.keys(example)).toEqual(expect.arrayContaining(['SMARTSHEET_ACCESS_TOKEN', 'SMARTSHEET_API_BASE', 'SEATFLOW_CONTROL_TOKEN']));
  return { ...example, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin, SMARTSHEET_API_BASE: server.url, SEATFLOW_CONTROL_TOKEN: CONTROL_TOKEN };
}

/** Submits three deactivations to the recipe's control API and waits until its worker has taken and finished them. */
async function takesABatch(recipe: RunningRecipe): Promise<void> {
  const api = `http://127.0.0.1:${recipe.portOf(8080)}`;
  const headers = { authorization: `Bearer ${CONTROL_TOKEN}` };
  const emails = deactivatableEmails(server, 3);
  const submitted = await fetch(`${api}/v1/batches?name=leavers.csv`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: `email,action\n${emails.map((e) => `${e},deactivate`).join('\n')}\n` });
  expect(submitted.status, recipe.output()).toBe(202);
  const { batchId } = (await submitted.json()) as { batchId: string };
  const deadline = Date.now() + 45_000;
  let batch: { state: string; counts: Record<string, number> };
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    batch = (await (await fetch(`${api}/v1/batches/${batchId}`, { headers })).json()) as typeof batch;
  } while (batch.state !== 'finished' && Date.now() < deadline);
  expect(batch, recipe.output()).toMatchObject({ state: 'finished', counts: { succeeded: 3 } });
}

const names = (services: RecipeService[]) => services.map((service) => `${service.name}:${service.program}`);

// Three processes start per recipe and a batch runs through them: minutes on a loaded machine, seconds on a quiet one.
describe('deploy/ recipes, each service run as written', { timeout: 180_000 }, () => {
  it('compose.yaml: Redis with the append-only file, worker and serve start, answer /readyz, and take a batch', async () => {
    const services = composeServices(await operatorEnv());
    expect(names(services)).toEqual(['redis:redis', 'worker:seatflow', 'serve:seatflow']);
    expect(services[0]!.argv).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    running = await startRecipe(services, { hosts: ['redis'], workDir: work });
    await takesABatch(running);
  });

  it('systemd units: worker and serve start from ExecStart with their environment, answer /readyz, and take a batch', async () => {
    const services = systemdServices({ stateDir: path.join(work, 'state'), envFile: await operatorEnv() });
    expect(names(services)).toEqual(['redis-server:redis', 'seatflow-worker.service:seatflow', 'seatflow-serve.service:seatflow']);
    running = await startRecipe(services, { hosts: [], workDir: work });
    await takesABatch(running);
  });

  it('kubernetes: the Redis StatefulSet, worker and serve Deployments start, pass their readiness probes, and take a batch', async () => {
    const { SMARTSHEET_ACCESS_TOKEN, SEATFLOW_CONTROL_TOKEN } = await operatorEnv();
    const services = kubernetesServices({ SMARTSHEET_ACCESS_TOKEN: SMARTSHEET_ACCESS_TOKEN!, SEATFLOW_CONTROL_TOKEN: SEATFLOW_CONTROL_TOKEN! });
    expect(names(services)).toEqual(['seatflow-redis:redis', 'seatflow-worker:seatflow', 'seatflow-serve:seatflow']);
    // The ConfigMap names the real service: the operator points it at theirs, as this test points it at the reference server.
    for (const service of services) if (service.env.SMARTSHEET_API_BASE !== undefined) service.env.SMARTSHEET_API_BASE = server.url;
    running = await startRecipe(services, { hosts: ['seatflow-redis'], workDir: work });
    await takesABatch(running);
  });
});
