import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from '../helpers/run-seatflow.js';

/** Debian's package; the test never downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags without which Chromium stalls or phones home on a closed network. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Headless Chromium with a fresh profile directory; close() removes it. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the browser test needs Chromium at ${CHROMIUM}: install Debian's package with \`sudo apt-get install -y chromium\` (.ci/run installs it when missing)`);
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), 'seatflow-chromium-'));
  // launchPersistentContext passes the fresh profile as --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1366, height: 860 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface ServeProcess {
  url: string;
  token: string;
  /** Base URL of the embedded reference server (`…/2.0`), which answers `sim-admin-token`. */
  simUrl: string;
  stop(): Promise<void>;
}

/**
 * `seatflow serve --sim --workers 1` as a person starts it, on a free port, with no control token configured: the
 * test signs in with the token the server generated and printed.
 */
export async function startServe(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'serve', '--sim', '--workers', '1', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, SMARTSHEET_ACCESS_TOKEN: '', SEATFLOW_CONTROL_TOKEN: '', SEATFLOW_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const started = await new Promise<{ url: string; token: string; simUrl: string }>((resolve, reject) => {
    const timer = setInterval(() => {
      const url = /dashboard: (http:\/\/\S+?)\/?\s/.exec(stdout)?.[1];
      const token = /control token \(generated[^)]*\): (\S+)/.exec(stdout)?.[1];
      const simUrl = /embedded reference server at (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url !== undefined && token !== undefined && simUrl !== undefined) {
        clearInterval(timer);
        resolve({ url, token, simUrl });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`seatflow serve exited with ${code} before listening:\n${stdout}\n${stderr}`));
    });
  });
  return {
    ...started,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `check` until it returns a value, or fails after `timeoutMs` saying what it waited for. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The id of the element that has keyboard focus once it landed on `expected`, or after 15 s. Chromium moves focus to
 * an `autofocus` element at its next rendering update, which on a loaded machine comes after the load event a
 * navigation waits for: read at once, focus was still on the body (CI, a dashboard test).
 */
export async function focusAfterLoad(page: Page, expected: string): Promise<string | null> {
  await page.waitForFunction(`document.activeElement !== null && document.activeElement.id === ${JSON.stringify(expected)}`, undefined, { timeout: 15_000 }).catch(() => undefined);
  return focusedId(page);
}

/** The id of the element that has keyboard focus now (null: none). */
export async function focusedId(page: Page): Promise<string | null> {
  return (await page.evaluate('document.activeElement ? document.activeElement.id : null')) as string | null;
}
