import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/seatflow-error.js';
import { assertSafeBinding, isLoopbackHost, startControlServer } from '../../../src/control/start-control-server.js';
import { auth, controlDeps } from './control-test-deps.js';

describe('startControlServer', () => {
  it('refuses to bind to a non-loopback address without a token, saying what to set', async () => {
    const start = startControlServer({ deps: controlDeps({ token: undefined }), host: '0.0.0.0', port: 0 });
    await expect(start).rejects.toBeInstanceOf(UsageError);
    await expect(start).rejects.toThrow(/without a token/);
    let refused: unknown;
    try {
      assertSafeBinding('10.1.2.3', undefined);
    } catch (error) {
      refused = error;
    }
    expect((refused as UsageError).hint).toMatch(/SEATFLOW_CONTROL_TOKEN/);
  });

  it('allows a non-loopback address with a token, and loopback without one', () => {
    expect(() => assertSafeBinding('0.0.0.0', 'secret')).not.toThrow();
    expect(() => assertSafeBinding('127.0.0.1', undefined)).not.toThrow();
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
