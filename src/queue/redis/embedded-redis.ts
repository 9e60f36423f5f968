import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../core/logger.js';
import { SeatflowError } from '../../core/seatflow-error.js';
import { probeRedis, probeRedisAnswer } from './probe-redis.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';

/**
 * The private redis-server seatflow runs when REDIS_URL is unset.
 *
 * One per data directory, shared by every seatflow process on this machine that uses that directory:
 * - it listens on a unix socket `<dataDir>/redis/redis.sock` (no TCP port), so a later `worker` finds what `submit`
 *   queued simply by using the same data directory;
 * - a process that finds the socket answering joins it; otherwise it takes `start.lock` (O_EXCL, holding its pid) and
 *   starts one, detached from the terminal so that Ctrl-C of one command does not kill a server others use;
 * - on exit, every process calls `release()`: when no other client is connected, the server is shut down (it writes
 *   its append-only file first); when others are, it is left running and the last one out stops it.
 * A seatflow process killed with SIGKILL leaves the server running; the next command joins it.
 */
export interface EmbeddedRedisOptions {
  /** seatflow's data directory (`.seatflow` by default); the server keeps its files in `<dataDir>/redis`. */
  dataDir: string;
  /** config/redis.conf. */
  configFile: string;
  /** Default `redis-server`, found on PATH. */
  serverBinary?: string;
  logger: Logger;
  /** How long to wait for a starting server to answer. Default 15 s. */
  startTimeoutMs?: number;
}

export interface EmbeddedRedis {
  /** ioredis options reaching it. */
  connection: RedisOptions;
  /** For messages: `unix:/path/redis.sock`. */
  description: string;
  /** True when this process started the server. */
  started: boolean;
  /** Stops the server when no other client uses it. Call after closing every connection of this process. */
  release(): Promise<void>;
}

const SOCKET_PATH_LIMIT = 100;

export function embeddedRedisSocket(dataDir: string): string {
  const dir = path.resolve(dataDir, 'redis');
  const socket = path.join(dir, 'redis.sock');
  if (socket.length <= SOCKET_PATH_LIMIT) return socket;
  // Unix socket paths are limited to ~107 bytes; a deep data directory gets a stable name in the temp folder.
  const digest = createHash('sha256').update(dir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `seatflow-redis-${digest}.sock`);
}

export async function startOrJoinEmbeddedRedis(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
  const dir = path.resolve(options.dataDir, 'redis');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socket = embeddedRedisSocket(options.dataDir);
  const connection: RedisOptions = { path: socket };
  const description = `unix:${socket}`;
  const make = (started: boolean): EmbeddedRedis => ({
    connection,
    description,
    started,
    release: () => releaseEmbeddedRedis(connection, path.join(dir, 'redis.pid'), options.logger),
  });

  const first = await probeRedisAnswer(connection, 500);
  if (first === undefined) return make(false);
  const pid = readPid(path.join(dir, 'redis.pid'));
  if (first.silent && pid !== undefined && isAlive(pid)) {
    // Running but not answering (stopped with SIGSTOP, or wedged): waiting would hang every command.
    throw new RedisUnavailableError('REDIS_UNAVAILABLE', `the private redis-server (pid ${pid}, ${description}) does not answer: ${first.message}`, {
      hint: `If it was stopped, resume it (kill -CONT ${pid}); if it is wedged, stop it (kill ${pid}) and run the command again. Nothing was queued or changed.`,
    });
  }
  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  const lockFile = path.join(dir, 'start.lock');
  while (!takeLock(lockFile)) {
    if ((await probeRedis(connection, 500)) === undefined) return make(false);
    if (Date.now() > deadline) {
      throw new SeatflowError('REDIS_START', `another seatflow process holds ${lockFile} and its Redis does not answer`, {
        hint: 'If no other seatflow command is running, delete that file and try again.',
      });
    }
    await sleep(100);
  }
  try {
    if ((await probeRedis(connection, 500)) === undefined) return make(false);
    // A server still shutting down owns the data files: wait until it is gone before starting another one.
    await waitForExit(readPid(path.join(dir, 'redis.pid')), deadline);
    await spawnServer(options, dir, socket, connection, deadline);
    options.logger.debug({ socket }, 'started the embedded redis-server');
    return make(true);
  } finally {
    rmSync(lockFile, { force: true });
  }
}

async function spawnServer(options: EmbeddedRedisOptions, dir: string, socket: string, connection: RedisOptions, deadline: number): Promise<void> {
  rmSync(socket, { force: true });
  const binary = options.serverBinary ?? 'redis-server';
  const args = [
    path.resolve(options.configFile),
    '--dir', dir,
    '--unixsocket', socket,
    '--pidfile', path.join(dir, 'redis.pid'),
    '--logfile', path.join(dir, 'redis.log'),
  ];
  const child = spawn(binary, args, { detached: true, stdio: 'ignore' });
  let failure: Error | undefined;
  let exited = false;
  child.on('error', (error) => (failure = error));
  child.on('exit', () => (exited = true));
  child.unref();
  for (;;) {
    if (failure !== undefined) {
      if ((failure as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SeatflowError('REDIS_NOT_INSTALLED', `redis-server is not installed (no "${binary}" on PATH)`, {
          hint:
            'Install Redis 6.2 or newer (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), ' +
            'or point seatflow at a running Redis with REDIS_URL=redis://host:6379.',
        });
      }
      throw new SeatflowError('REDIS_START', `cannot start redis-server: ${failure.message}`, { cause: failure });
    }
    if (exited) {
      throw new SeatflowError('REDIS_START', `redis-server exited at start: ${tail(path.join(dir, 'redis.log'))}`, {
        hint: `See ${path.join(dir, 'redis.log')}, or set REDIS_URL to use another Redis.`,
      });
    }
    if ((await probeRedis(connection, 500)) === undefined) return;
    if (Date.now() > deadline) {
      throw new SeatflowError('REDIS_START', `redis-server did not answer on ${socket} in time`, {
        hint: `See ${path.join(dir, 'redis.log')}.`,
      });
    }
    await sleep(50);
  }
}

async function releaseEmbeddedRedis(connection: RedisOptions, pidFile: string, logger: Logger): Promise<void> {
  const client = new Redis({ ...connection, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    // Connections this process just closed may still be listed for a moment: look again before deciding.
    let others = 0;
    for (let look = 0; look < 10; look += 1) {
      const list = String(await client.client('LIST'));
      others = list.split('\n').filter((line) => line.trim() !== '').length - 1;
      if (others === 0) break;
      await sleep(100);
    }
    if (others > 0) {
      logger.debug({ others }, 'embedded redis-server left running for other seatflow processes');
      return;
    }
    const pid = readPid(pidFile);
    await client.call('SHUTDOWN').catch(() => undefined);
    await waitForExit(pid, Date.now() + 10_000);
    logger.debug('embedded redis-server stopped');
  } catch (error) {
    logger.debug({ err: error }, 'embedded redis-server already gone');
  } finally {
    // After SHUTDOWN the server has closed the socket: disconnect() would then arm ioredis' 2 s "still open" timer
    // that nothing clears, and the command would linger 2 s before exiting.
    if (client.status !== 'end') client.disconnect();
  }
}

function takeLock(file: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A lock left by a process that died is stale.
    const holder = readPid(file);
    if (holder !== undefined && !isAlive(holder)) rmSync(file, { force: true });
    return false;
  }
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number | undefined, deadline: number): Promise<void> {
  while (pid !== undefined && isAlive(pid) && Date.now() < deadline) await sleep(50);
}

function tail(file: string): string {
  if (!existsSync(file)) return 'no log';
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines.slice(-3).join(' | ');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
