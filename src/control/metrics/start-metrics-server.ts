import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { listenRefusal } from '../../core/listen-refusal.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Whether the process can work now (its Redis answers); `message` says why not. */
export type ReadinessCheck = () => Promise<{ ok: boolean; message?: string }>;

/**
 * `seatflow worker --metrics-port`: GET /metrics on its own small server, for Prometheus to scrape. It shows counts
 * and queue depths, never a token or a user, so it takes no auth; it binds loopback unless told otherwise. With
 * `ready`, it also answers the probes of an orchestrator, as `seatflow serve` does: /healthz (the process answers) and
 * /readyz (200 when `ready` says so, else 503 with why).
 */
export async function startMetricsServer(registry: Registry, options: { port: number; host: string; ready?: ReadinessCheck }): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const route = (request.url ?? '').split('?', 1)[0];
    const { ready } = options;
    if (request.method === 'GET' && ready !== undefined && (route === '/healthz' || route === '/readyz')) {
      const answer = route === '/healthz' ? Promise.resolve({ ok: true }) : ready().catch((error: unknown) => ({ ok: false, message: String(error) }));
      void answer.then((check) => response.writeHead(check.ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: check.ok ? 'ok' : 'not ready', ...check })));
      return;
    }
    if (request.method !== 'GET' || route !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`only GET /metrics${ready === undefined ? '' : ', /healthz and /readyz'} here\n`);
      return;
    }
    registry
      .metrics()
      .then((text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text))
      .catch((error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${String(error)}\n`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenRefusal(error, { what: 'the metrics endpoint', host: options.host, port: options.port, flag: '--metrics-port' })));
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
