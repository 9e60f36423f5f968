import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/index.js';
import { startTestRedis, type TestRedis } from './redis-server.js';

/**
 * The governance commands as people run them (test/integration/governance-cli*.test.ts): a Redis, a reference server
 * and a configuration of two operators, alice and bob, both mapped to this OS account (so each command says who with
 * --by), approvals above 2 changes. One per test file; the bindings are set by the file's beforeAll.
 */
export let server: RunningReferenceServer;
export let dir: string;
export let env: NodeJS.ProcessEnv;
export const me = os.userInfo().username;
let redis: TestRedis;

export function useGovernanceCli(): void {
  beforeAll(async () => {
    redis = await startTestRedis();
    server = await startReferenceServer({ rateLimit: 'off' });
    dir = mkdtempSync(path.join(os.tmpdir(), 'sf-gov-cli-'));
    const config = {
      governance: {
        operators: [
          { name: 'alice', role: 'operator', token: 'alice-token-0123456789abcdef0123456789', osUsers: [me] },
          { name: 'bob', role: 'approver', token: 'bob-token-0123456789abcdef0123456789abcd', osUsers: [me] },
        ],
        approvals: { changesAbove: 2 },
      },
    };
    writeFileSync(path.join(dir, 'seatflow.json'), JSON.stringify(config));
    env = {
      SMARTSHEET_API_BASE: server.url,
      SMARTSHEET_ACCESS_TOKEN: server.tokens.admin,
      SEATFLOW_API_REGION: 'US',
      REDIS_URL: redis.url,
      SEATFLOW_QUEUE_PREFIX: redis.prefix(),
      SEATFLOW_DATA_DIR: dir,
      SEATFLOW_CONFIG: path.join(dir, 'seatflow.json'),
      SEATFLOW_LOG_LEVEL: 'warn',
    };
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await redis?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
}

/** Generated members of one plan (a downgrade to CONTRIBUTOR is planned for each). */
export function members(count: number): string[] {
  const out: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (user.status === 'ACTIVE' && !user.admin && !user.externallyManaged && user.seats.length === 1 && user.seats[0]!.seatType === 'MEMBER' && /\.\d+@acme\.example$/.test(user.email)) out.push(user.email);
    if (out.length === count) break;
  }
  return out;
}

export const seat = (email: string) => [...server.context.state.users.values()].find((user) => user.email === email)?.seats[0]?.seatType;
