import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenRefusal } from '../../../src/core/listen-refusal.js';
import { UsageError } from '../../../src/core/seatflow-error.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The error a second listen on a port gets, as Node gives it. */
async function listenError(port: number, host: string): Promise<unknown> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve) => {
    server.once('error', resolve);
    server.listen(port, host, () => resolve(undefined));
  });
}

describe('listenRefusal', () => {
  it('turns a port in use into a refusal that names the address and the flag choosing another', async () => {
    expect(await listenError(0, '127.0.0.1')).toBeUndefined();
    const { port } = servers[0]!.address() as { port: number };
    const refusal = listenRefusal(await listenError(port, '127.0.0.1'), { what: 'the control API', host: '127.0.0.1', port, flag: '--port' });
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as UsageError).message).toBe(`the control API cannot listen on 127.0.0.1:${port}: the port is in use`);
    expect((refusal as UsageError).hint).toContain('--port N');
  });

  it('names an address that is not this machine’s, in brackets when it is IPv6', () => {
    const refusal = listenRefusal(Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' }), { what: 'the metrics endpoint', host: '2001:db8::1', port: 9464, flag: '--metrics-port' });
    expect((refusal as UsageError).message).toBe('the metrics endpoint cannot listen on [2001:db8::1]:9464: 2001:db8::1 is not an address of this machine');
  });

  it('returns any other error as it is', () => {
    const other = new Error('boom');
    expect(listenRefusal(other, { what: 'x', host: '127.0.0.1', port: 1, flag: '--port' })).toBe(other);
  });
});
