import { afterAll, beforeAll } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/index.js';

/** A reference server of the file's own and an admin client whose every call's operation is noted in `calls`. */
export interface CountedClient {
  readonly server: RunningReferenceServer;
  readonly api: SmartsheetClient;
  /** The operations called, in order (`users.list`, …): a test empties it, acts, and reads what was called. */
  readonly calls: string[];
}

/** Starts the server and the client before the file's tests (rate limit off, `users` users) and stops them after. */
export function useCountedClient(options: { users: number }): CountedClient {
  let server: RunningReferenceServer | undefined;
  let api: SmartsheetClient | undefined;
  const calls: string[] = [];
  beforeAll(async () => {
    server = await startReferenceServer({ rateLimit: 'off', users: options.users });
    api = createSmartsheetClient({ baseUrl: server.url, accessToken: server.tokens.admin, beforeRequest: async (info) => void calls.push(info.operation) });
  });
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the counted client is used before beforeAll started it');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get api() {
      return started(api);
    },
    calls,
  };
}
