import { buildReferenceServer, type ReferenceServer } from './build-reference-server.js';
import type { ReferenceServerOptions } from './reference-server-options.js';
import { listenRefusal } from '../core/listen-refusal.js';

export interface StartReferenceServerOptions extends ReferenceServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. /_sim answers loopback callers only, whatever the host. */
  host?: string;
}

/** A listening reference server. */
export interface RunningReferenceServer extends ReferenceServer {
  /** Base URL of the API, ending in `/2.0` (e.g. `http://127.0.0.1:43121/2.0`). */
  url: string;
  /** Origin without the version, for /_sim calls: `${origin}/_sim/clock`. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the reference server (demo organization unless `data` is given) and resolves once it listens.
 *
 * @example
 * const sim = await startReferenceServer({ rateLimit: 'off' });
 * // new client({ baseUrl: sim.url, accessToken: sim.tokens.admin }) ...
 * await sim.close();
 */
export async function startReferenceServer(options: StartReferenceServerOptions = {}): Promise<RunningReferenceServer> {
  const server = buildReferenceServer(options);
  const host = options.host ?? '127.0.0.1';
  try {
    await server.app.listen({ port: options.port ?? 0, host });
  } catch (error) {
    await server.app.close();
    throw listenRefusal(error, { what: 'the reference server', host, port: options.port ?? 0, flag: '--port' });
  }
  const address = server.app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const origin = `http://${urlHost}:${port}`;
  return { ...server, url: `${origin}/2.0`, origin, port, close: () => server.app.close() };
}
