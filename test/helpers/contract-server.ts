import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import type { SmartsheetClientOptions } from '../../src/client/smartsheet-client-options.js';
import { startReferenceServer, type RunningReferenceServer, type StartReferenceServerOptions } from '../../src/server/index.js';

/** The reference server on port 0 with a client per demo token: what every contract test runs against. */
export interface ContractServer {
  sim: RunningReferenceServer;
  /** System Admin (admin@acme.example). */
  admin: SmartsheetClient;
  /** A plain user (dana.whitfield@acme.example). */
  user: SmartsheetClient;
  /** The third-party app "Acme HR Sync". */
  app: SmartsheetClient;
  client(accessToken: string, options?: Partial<SmartsheetClientOptions>): SmartsheetClient;
  /** The id of a demo user, looked up by e-mail through the client. */
  userId(email: string): Promise<number>;
  close(): Promise<void>;
}

export async function startContractServer(options: StartReferenceServerOptions = {}): Promise<ContractServer> {
  const sim = await startReferenceServer({ rateLimit: 'off', users: 20, ...options });
  const clients: SmartsheetClient[] = [];
  const client = (accessToken: string, extra: Partial<SmartsheetClientOptions> = {}) => {
    const made = createSmartsheetClient({ baseUrl: sim.url, accessToken, ...extra });
    clients.push(made);
    return made;
  };
  const admin = client(sim.tokens.admin);
  return {
    sim,
    admin,
    user: client(sim.tokens.user),
    app: client(sim.tokens.app),
    client,
    async userId(email) {
      const page = await admin.users.listPage({ email: [email] });
      const found = page.data.find((user) => user.email === email);
      if (found === undefined) throw new Error(`no demo user ${email}`);
      return found.id;
    },
    async close() {
      await Promise.all(clients.map((made) => made.close()));
      await sim.close();
    },
  };
}

/**
 * Starts one contract server for the test file and resets its data before each test. Returns a getter, because the
 * server exists only once `beforeAll` has run.
 */
export function useContractServer(options: StartReferenceServerOptions = {}): () => ContractServer {
  let server: ContractServer | undefined;
  beforeAll(async () => {
    server = await startContractServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.sim.controls.reset();
  });
  return () => {
    if (server === undefined) throw new Error('the contract server is not started yet');
    return server;
  };
}
