import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describeFailure, resultOf, reviveFailure, runParseTask, type ParseAnswer, type ParseFailure, type ParseResult, type ParseTask } from './parse-task.js';

export interface ParseThreadOptions {
  /** Inputs smaller than this are parsed on the calling thread (a thread hop costs more than they do). Default 256 KiB. */
  minBytes?: number;
}

export interface ParseThread {
  /** Runs the task: on the worker thread from `minBytes` on, else here; either way with the same result or error. */
  run<T extends ParseTask>(task: T): Promise<ParseResult<T>>;
  /** Tasks run on the worker thread so far (for tests and the benchmark). */
  readonly offThread: number;
  close(): Promise<void>;
}

/**
 * Parses large manifests and leavers files on one worker thread, so that a 10 MB upload never holds the server's
 * event loop (health probes, other pages) for seconds. One task at a time: a second large upload waits for the first,
 * so memory holds one parse, not one per caller. The thread starts on first use, does not keep the process alive,
 * and is started again if it dies.
 */
export function createParseThread(options: ParseThreadOptions = {}): ParseThread {
  const minBytes = options.minBytes ?? 256 * 1024;
  let worker: Worker | undefined;
  let nextId = 1;
  let offThread = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  // Each task starts when the one before it ended.
  let queue: Promise<unknown> = Promise.resolve();

  const start = (): Worker => {
    const started = threadOf();
    started.unref();
    started.on('message', (message: { id: number; answer?: ParseAnswer; failure?: ParseFailure }) => {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.failure !== undefined) waiting?.reject(reviveFailure(message.failure));
      else waiting?.resolve(resultOf(message.answer!));
    });
    const fail = (error: Error) => {
      if (worker === started) worker = undefined;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new Error(`the parse thread stopped: ${error.message}`));
      }
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    return started;
  };

  const onThread = (task: ParseTask): Promise<unknown> =>
    new Promise((resolve, reject) => {
      worker ??= start();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      offThread += 1;
      worker.postMessage({ id, task });
    });

  return {
    run<T extends ParseTask>(task: T): Promise<ParseResult<T>> {
      if (task.options.content.length < minBytes) {
        return runParseTask(task).catch((error: unknown) => Promise.reject(reviveFailure(describeFailure(error)))) as Promise<ParseResult<T>>;
      }
      const run = queue.then(() => onThread(task));
      queue = run.catch(() => undefined);
      return run as Promise<ParseResult<T>>;
    },
    get offThread() {
      return offThread;
    },
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}

/**
 * The worker of the entry module next to this one: compiled JavaScript as it is, or (running from the TypeScript
 * sources through tsx) TypeScript after registering tsx in the thread, which a worker does not inherit.
 */
function threadOf(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./parse-thread-entry.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry);
  // tsx's ESM API, as its package's "import" export names it (the CommonJS one cannot register hooks in a thread).
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(packageJson, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'];
  if (exported === undefined) throw new Error('tsx has no ./esm/api export: cannot start the parse thread from the TypeScript sources');
  const tsxApi = new URL(exported.import.default, pathToFileURL(packageJson)).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}
