import { startReferenceServer } from '../server/start-reference-server.js';
import { parseRateLimit } from '../server/sim/rate-limit.js';

/** The reference server running inside this process for `--sim`: demo organization, loopback, a free port. */
export interface EmbeddedSim {
  url: string;
  adminToken: string;
  close(): Promise<void>;
}

export interface EmbeddedSimOptions {
  /** `N/SECONDS` or `off`; default the server's own (300 per 60 s, like the real service). */
  rateLimit?: string;
  faults?: string;
}

export async function startEmbeddedSim(options: EmbeddedSimOptions = {}): Promise<EmbeddedSim> {
  const server = await startReferenceServer({
    ...(options.rateLimit === undefined ? {} : { rateLimit: parseRateLimit(options.rateLimit) }),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
  return { url: server.url, adminToken: server.tokens.admin, close: () => server.close() };
}
