import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../helpers/run-seatflow.js';
import { skewPreload } from '../../helpers/skewed-clock.js';

/**
 * A long-running seatflow command (`worker`, `serve`) as its own process, as an operator runs it: killed with SIGKILL
 * (a crash: nothing is flushed), started again, and optionally on a machine whose clock is off by `skewMs` (a preload
 * shifts `Date.now` and `new Date()` before anything loads, BullMQ included). Its log lines go to `logFile`.
 */
export interface SeatflowProcess {
  readonly name: string;
  /** The clock skew of the running process (0: in step with this machine). */
  skewMs(): number;
  running(): boolean;
  start(options?: { skewMs?: number }): void;
  /** SIGKILL, and waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop within worker.shutdownGraceMs), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** How many times it exited on its own and was started again. */
  restarts(): number;
  /** CPU seconds (user + system) its processes used so far, over every start (Linux: /proc; 0 elsewhere). */
  cpuSeconds(): number;
  /** Resolves with the first stdout line matching `pattern` (e.g. the URL `serve` prints). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

export interface SeatflowProcessOptions {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  /**
   * Started again this long after it exits on its own (as systemd's Restart=on-failure would; a worker whose start-up
   * token check meets a 429 storm exits); undefined: left down.
   */
  restartAfterMs?: number;
}

export function seatflowProcess(options: SeatflowProcessOptions): SeatflowProcess {
  let child: ChildProcess | undefined;
  let skew = 0;
  let log: WriteStream | undefined;
  let stdout = '';
  let cpuOfEnded = 0;
  // Set while we stop or kill it ourselves: any other exit is its own, and the supervisor starts it again.
  let stopping = false;
  let restarts = 0;
  const cpuNow = () => (child?.pid === undefined ? 0 : cpuOf(child.pid));
  // Read just before the process ends (a SIGKILL, a stop), when /proc still has it.
  const noteCpu = () => {
    cpuOfEnded += cpuNow();
  };
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const self: SeatflowProcess = {
    name: options.name,
    skewMs: () => skew,
    running: alive,
    start(startOptions = {}) {
      if (alive()) throw new Error(`${options.name} is running already`);
      skew = startOptions.skewMs ?? 0;
      log ??= createWriteStream(options.logFile, { flags: 'a' });
      log.write(`--- start${skew === 0 ? '' : ` (clock skewed ${skew} ms)`} at ${new Date().toISOString()}\n`);
      stdout = '';
      const preload = skew === 0 ? [] : ['--import', skewPreload(skew)];
      stopping = false;
      const started = spawn(process.execPath, [...preload, path.join(ROOT, 'bin/seatflow'), ...options.args], { cwd: ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      started.once('exit', (code, signal) => {
        if (stopping || options.restartAfterMs === undefined || child !== started) return;
        restarts += 1;
        log?.write(`--- exited on its own (${String(code ?? signal)}) at ${new Date().toISOString()}: started again in ${options.restartAfterMs} ms (restart ${restarts})\n`);
        setTimeout(() => {
          if (!stopping && child === started) self.start({ skewMs: skew });
        }, options.restartAfterMs).unref();
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        log?.write(chunk);
      });
      child.stderr?.on('data', (chunk: Buffer) => log?.write(chunk));
    },
    async kill() {
      const running = child;
      if (running === undefined || !alive()) return;
      const exited = once(running, 'exit');
      noteCpu();
      stopping = true;
      running.kill('SIGKILL');
      await exited;
      log?.write(`--- SIGKILL at ${new Date().toISOString()}\n`);
    },
    async stop(graceMs = 5000) {
      stopping = true;
      const running = child;
      if (running === undefined || !alive()) {
        log?.end();
        log = undefined;
        return;
      }
      const exited = once(running, 'exit');
      noteCpu();
      stopping = true;
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      log?.end();
      log = undefined;
    },
    cpuSeconds: () => cpuOfEnded + (alive() ? cpuNow() : 0),
    restarts: () => restarts,
    async waitForOutput(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stdout);
        if (match !== null) return match;
        if (!alive()) throw new Error(`${options.name} exited (${String(child?.exitCode ?? child?.signalCode)}) before printing ${pattern}; see ${options.logFile}`);
        if (Date.now() > deadline) throw new Error(`${options.name} printed no ${pattern} within ${timeoutMs} ms; see ${options.logFile}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return self;
}

/** utime + stime of a process, in seconds, from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s). */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
