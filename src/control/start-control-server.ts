import type { FastifyInstance } from 'fastify';
import { listenRefusal } from '../core/listen-refusal.js';
import { buildControlApp } from './build-control-app.js';
import type { ControlDeps } from './control-deps.js';
import { isLoopbackHost } from './loopback-host.js';

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

export { isLoopbackHost };

/** Listens with the control API; the token is always required (buildControlApp refuses one under 32 characters). */
export async function startControlServer(options: StartControlServerOptions): Promise<RunningControlServer> {
  const host = options.host ?? '127.0.0.1';
  const app = buildControlApp({ ...options.deps, http: { ...options.deps.http, bindHost: host } });
  try {
    await app.listen({ host, port: options.port ?? 8080 });
  } catch (error) {
    await app.close();
    throw listenRefusal(error, { what: 'the control API', host, port: options.port ?? 8080, flag: '--port' });
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 8080);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { app, url: `http://${urlHost}:${port}`, port, close: () => app.close() };
}
