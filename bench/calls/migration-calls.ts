import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { domainMigrationRequestSchema } from '../../src/migrate/domain-migration-request.js';
import { domainMigrationsOf } from '../../src/migrate/domain-migrations.js';
import type { MigrationInput } from '../../src/migrate/migration-input.js';
import { planMigration, queueMigration, type PlannedMigration } from '../../src/migrate/plan-migration.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { newSharedSecret } from '../../src/server/routes/webhooks.js';
import type { ColumnRecord } from '../../src/server/state/records.js';
import { GUARDRAILS, type CallEnv } from './call-env.js';
import { candidates, resolveFloor, type CallScenario, type ScenarioResult } from './call-scenario.js';

/** The service lists webhooks 1000 a page at most (the page plan-webhook-migration.ts asks for). */
const WEBHOOKS_PER_PAGE = 1000;

/** Plans a migration as `seatflow migrate` does (live state, the bench's client), then queues exactly that plan. */
async function planAndQueue(env: CallEnv, input: MigrationInput): Promise<{ planned: PlannedMigration; id: string }> {
  const planned = await planMigration(input, { api: env.h.api, guardrails: GUARDRAILS, nowMs: env.clock.now() });
  const queued = await queueMigration(planned, { engine: env.offboarding.engine.context, system: env.h.system, target: env.h.server.url });
  return { planned, id: queued.id };
}

async function batchFinished(env: CallEnv, batchId: string): Promise<void> {
  await env.until(async () => (await env.h.system.store.get(batchId))?.state === 'finished', `batch ${batchId}`);
}

/** The admin the demo organization's token belongs to: the owner of the sheets and webhooks made here. */
function adminId(env: CallEnv): number {
  const admin = [...env.h.server.context.state.users.values()].find((user) => user.email === 'admin@acme.example');
  if (admin === undefined) throw new Error('the demo organization has no admin@acme.example');
  return admin.id;
}

/**
 * `seatflow migrate domain --from acme.example --to acme.io --users FILE --validated-domains acme.example,acme.io` for
 * `people` members of the demo plan (both domains validated, so every new address counts as confirmed at once: no
 * owner's confirmation to wait for), keeping or removing the old address; planned, queued and run until every user
 * has ended.
 */
function domainScenario(oldAddress: 'keep' | 'remove'): CallScenario {
  return {
    name: `migrate domain, ${oldAddress === 'keep' ? 'keep old' : 'remove old'}`,
    organization: (people) => Math.max(2000, people * 3),
    async run(env, people): Promise<ScenarioResult> {
      const { state } = env.h.server.context;
      state.plans.get(DEMO.planId)?.domains.push('acme.io');
      // Members of the demo plan only: its domain (acme.example) is validated, so the service makes the new address primary.
      const inDemoPlan = new Set([...state.users.values()].filter((user) => user.seats.every((seat) => seat.planId === DEMO.planId)).map((user) => user.email));
      const emails = candidates(env.h.server, people * 2).filter((email) => inDemoPlan.has(email)).slice(0, people);
      if (emails.length < people) throw new Error(`only ${emails.length} members of the demo plan to migrate`);
      const request = domainMigrationRequestSchema.parse({ from: 'acme.example', to: 'acme.io', users: emails, usersFile: 'users.txt', oldAddress, validatedDomains: ['acme.example', 'acme.io'] });
      const since = env.mark();
      const { planned, id } = await planAndQueue(env, { migration: 'domain', request });
      if (planned.domain?.summary.migrate !== people) throw new Error(`expected ${people} users to migrate, planned ${JSON.stringify(planned.domain?.summary)}`);
      await env.offboarding.promoteDue(env.clock.now());
      await env.until(async () => (await env.offboarding.engine.nothingDue(id)) && (await env.offboarding.settled(id)), 'the domain migration');
      const calls = env.callsSince(since);
      const migrated = (await domainMigrationsOf(env.offboarding.engine).status(id))?.persons.filter((person) => person.phase === 'migrated').length ?? 0;
      if (migrated !== people) throw new Error(`expected ${people} migrated, got ${migrated}`);
      const users = state.users.size;
      return {
        people,
        calls,
        minimum: {
          perPerson: oldAddress === 'keep' ? 3 : 4,
          fixed: 1 + resolveFloor(2 * people, users),
          why: `the user's alternate addresses (the plan: the listing carries none, and a clash or the limit is found there), add the new address, make it primary${oldAddress === 'keep' ? '' : ', delete the old one'}; who-am-I, resolving the old and new addresses`,
        },
        note: `${migrated} migrated`,
      };
    },
  };
}

/**
 * `seatflow migrate columns` over `people` sheets, each with a Status and a Notes column typed as text: the standard
 * makes Status a picklist (a type change), renames Notes to Comments (formerTitles) and adds Assigned On.
 */
const columnsScenario: CallScenario = {
  name: 'migrate columns',
  organization: () => 2000,
  async run(env, people): Promise<ScenarioResult> {
    const { state } = env.h.server.context;
    const now = env.clock.now();
    const column = (title: string, primary = false): ColumnRecord => ({ id: state.ids.next(), title, type: 'TEXT_NUMBER', primary, width: 150, hidden: false, locked: false, validation: false });
    const sheetIds: number[] = [];
    for (let i = 0; i < people; i += 1) {
      const id = state.ids.next();
      state.sheets.set(id, { id, name: `Assets office ${i}`, ownerId: adminId(env), dependenciesEnabled: false, sharing: {}, columns: [column('Asset', true), column('Status'), column('Notes')], rows: [], discussions: [], version: 1, createdAt: now, modifiedAt: now });
      sheetIds.push(id);
    }
    const spec = { version: 1, columns: [{ title: 'Status', type: 'PICKLIST', options: ['In use', 'Spare', 'Retired'] }, { title: 'Comments', type: 'TEXT_NUMBER', formerTitles: ['Notes'] }, { title: 'Assigned On', type: 'DATE' }] };
    const sheetsFile = env.h.writeManifest('sheets.txt', sheetIds.map(String));
    const specFile = env.h.writeManifest('columns.json', [JSON.stringify(spec)]);
    const input: MigrationInput = { migration: 'columns', sheetsFile, sheetsBase64: (await readFile(sheetsFile)).toString('base64'), specFile, specBase64: (await readFile(specFile)).toString('base64') };
    const since = env.mark();
    const { planned, id } = await planAndQueue(env, input);
    if (planned.plan.summary.change !== people * 3) throw new Error(`expected ${people * 3} column changes, planned ${JSON.stringify(planned.plan.summary)}`);
    await batchFinished(env, id);
    return {
      people,
      calls: env.callsSince(since),
      minimum: { perPerson: 4, fixed: 0, why: 'per sheet: its columns (one read), the type change, the rename, the added column (the service takes one column change a call)' },
      note: `${people} sheets, 3 column changes each`,
    };
  },
};

/** A subscriber on loopback that answers every verification challenge, as a re-pointed webhook's new URL must. */
async function startSubscriber(): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'smartsheet-hook-response': String(request.headers['smartsheet-hook-challenge'] ?? '') }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * `seatflow migrate webhooks` over `people` enabled webhooks of a sheet: `--repoint OLD NEW` (each re-pointed and
 * verified again by the service at a subscriber that answers) or `--rotate-secrets --secrets-to FILE`.
 */
function webhooksScenario(mode: 'repoint' | 'rotate-secrets'): CallScenario {
  return {
    name: `migrate webhooks, ${mode === 'repoint' ? 'repoint' : 'rotate secrets'}`,
    organization: () => 2000,
    async run(env, people): Promise<ScenarioResult> {
      const { state } = env.h.server.context;
      const subscriber = await startSubscriber();
      try {
        const now = env.clock.now();
        const owner = adminId(env);
        for (let i = 0; i < people; i += 1) {
          const id = state.ids.next();
          state.webhooks.set(id, { id, name: `Assets ${i}`, callbackUrl: `${subscriber.base}/old/${i}`, scope: 'sheet', scopeObjectId: DEMO.itAssetSheetId, events: ['*.*'], version: 1, enabled: true, status: 'ENABLED', sharedSecret: newSharedSecret(), owner: { kind: 'user', userId: owner }, createdAt: now, modifiedAt: now });
        }
        const webhooks = state.webhooks.size;
        const request = mode === 'repoint' ? { mode, from: `${subscriber.base}/old`, to: `${subscriber.base}/new` } : { mode, secretsTo: path.join(env.h.dir, 'secrets.jsonl') };
        const since = env.mark();
        const { planned, id } = await planAndQueue(env, { migration: 'webhooks', request } as MigrationInput);
        if (planned.plan.summary.change < people) throw new Error(`expected ${people} webhook changes, planned ${JSON.stringify(planned.plan.summary)}`);
        await batchFinished(env, id);
        const changed = planned.plan.summary.change;
        return {
          people: changed,
          calls: env.callsSince(since),
          minimum: { perPerson: 1, fixed: Math.ceil(webhooks / WEBHOOKS_PER_PAGE), why: `per webhook: the ${mode === 'repoint' ? 'update to the new URL (enabled again: the service verifies it)' : 'secret reset'}; the webhooks listed (${WEBHOOKS_PER_PAGE} a page)` },
          note: `${changed} webhooks${mode === 'repoint' ? ' re-pointed' : ' given a new secret'}`,
        };
      } finally {
        await subscriber.close();
      }
    },
  };
}

export const MIGRATION_SCENARIOS: readonly CallScenario[] = [domainScenario('keep'), domainScenario('remove'), columnsScenario, webhooksScenario('repoint'), webhooksScenario('rotate-secrets')];
