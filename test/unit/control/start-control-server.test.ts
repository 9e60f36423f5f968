import { describe, expect, it } from 'vitest';
import { isLoopbackHost, startControlServer } from '../../../src/control/start-control-server.js';
import { auth, controlDeps } from './control-test-deps.js';

describe('startControlServer', () => {
  it('refuses a control token shorter than 32 characters, wherever it binds', async () => {
    await expect(startControlServer({ deps: controlDeps({ token: 'short-token-of-31-characters-xx' }), host: '127.0.0.1', port: 0 })).rejects.toThrow(/at least 32 characters/);
  });

  it('listens on a free port and answers over HTTP', async () => {
    const server = await startControlServer({ deps: controlDeps(), host: '127.0.0.1', port: 0 });
    try {
      expect(server.port).toBeGreaterThan(0);
      const response = await fetch(`${server.url}/v1/batches`, { headers: auth });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('isLoopbackHost', () => {
  it('knows loopback addresses from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com', '127.example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });
});
