import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { UsageError } from '../core/seatflow-error.js';
import { buildControlApp } from './build-control-app.js';
import type { ControlDeps } from './control-deps.js';

export interface StartControlServerOptions {
  deps: ControlDeps;
  /** config control.host. Default 127.0.0.1. */
  host?: string;
  /** config control.port; 0 picks a free port. Default 8080. */
  port?: number;
}

export interface RunningControlServer {
  app: FastifyInstance;
  /** `http://host:port`, for messages and clients. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Whether only this machine can reach the address (so running without a token exposes nothing). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** Throws unless the host is loopback or a token is set; `seatflow serve` calls it before starting anything. */
export function assertSafeBinding(host: string, token: string | undefined): void {
  if (token !== undefined || isLoopbackHost(host)) return;
  throw new UsageError(
    `refusing to serve the control API on ${host} without a token: anyone who can reach it could change users`,
    'Set SEATFLOW_CONTROL_TOKEN (or control.token in the config file) to a long random secret, or bind to 127.0.0.1.',
  );
}

/**
 * Listens with the control API. Refuses to bind to an address other machines can reach unless a token is configured:
 * the API can deactivate users, so it is never open to the network.
 */
export async function startControlServer(options: StartControlServerOptions): Promise<RunningControlServer> {
  const host = options.host ?? '127.0.0.1';
  assertSafeBinding(host, options.deps.token);
  const app = buildControlApp(options.deps);
  await app.listen({ host, port: options.port ?? 8080 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 8080);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { app, url: `http://${urlHost}:${port}`, port, close: () => app.close() };
}
