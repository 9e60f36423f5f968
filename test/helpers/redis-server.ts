import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

/** A real redis-server for one test file: random port, its own directory, append-only on, removable. */
export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  /** A fresh key prefix for one test. */
  prefix(): string;
  /** Stops the server cleanly (it writes its AOF) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Sends a signal to the server process (SIGSTOP freezes it: it keeps accepting connections and answers nothing). */
  signal(signal: NodeJS.Signals): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** `volatile`: append-only file and snapshots off, a Redis that keeps nothing across a restart. */
export async function startTestRedis(options: { volatile?: boolean } = {}): Promise<TestRedis> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const persistence = options.volatile === true ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', 'always'];
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...persistence, '--save', '', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
    await waitForPing(port);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    // A server killed by a signal (SIGKILL) has no exit code, only a signal code: it is stopped already.
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    prefix: () => `t${randomUUID().slice(0, 8)}`,
    async restart() {
      await stop();
      await start();
    },
    async stop() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    signal(signal) {
      child?.kill(signal);
    },
  };
}

/** Resolves once a redis-server on this loopback port answers PING (tried every 25 ms, for about 10 s). */
export async function waitForPing(port: number): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      client.disconnect();
    }
  }
  throw new Error(`redis-server on port ${port} did not start`);
}
