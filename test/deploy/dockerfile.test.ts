import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDockerfile, splitOptions, type Stage } from '../helpers/dockerfile-steps.js';
import { copyPackageSources } from '../helpers/package-sources.js';
import { freePort } from '../helpers/redis-server.js';
import { runCommand } from '../helpers/run-command.js';

// The Dockerfile's build reproduced without a container engine: each stage's root is a folder; COPY copies from the
// build context (a copy of the package's sources) or from another stage; every npm command runs as written, in its
// WORKDIR, with its ENV, and a `--mount=type=cache` on the npm cache is this machine's npm cache (what a build
// cache is). RUN lines that are not npm must be ones this test knows (the system packages: checked present here).
const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
let work: string;
let context: string;
const roots = new Map<string, string>();
const env = new Map<string, Record<string, string>>();
let runtime: Stage;

/** A path of a stage's file system, in that stage's folder. */
const inStage = (stage: string, file: string) => path.join(roots.get(stage)!, file);

async function build(stage: Stage): Promise<void> {
  const root = path.join(work, `stage-${stage.name}`);
  roots.set(stage.name, root);
  const vars: Record<string, string> = {};
  env.set(stage.name, vars);
  let cwd = '/';
  const absolute = (file: string) => (path.posix.isAbsolute(file) ? file : path.posix.join(cwd, file));
  for (const { keyword, args } of stage.instructions) {
    const { options, rest } = splitOptions(args);
    if (keyword === 'WORKDIR') {
      cwd = absolute(rest);
      await mkdir(inStage(stage.name, cwd), { recursive: true });
    } else if (keyword === 'ENV') {
      const [name, value] = rest.split('=', 2) as [string, string];
      vars[name] = value;
    } else if (keyword === 'COPY') {
      const words = rest.split(/\s+/);
      const destination = absolute(words.pop()!);
      for (const source of words) {
        const from = options.from === undefined ? path.join(context, source) : inStage(options.from, source);
        const to = destination.endsWith('/') ? path.join(inStage(stage.name, destination), path.basename(source)) : inStage(stage.name, destination);
        await cp(from, to, { recursive: true });
      }
    } else if (keyword === 'RUN') {
      await run(stage, rest, options, inStage(stage.name, cwd), vars);
    } else if (!['USER', 'ENTRYPOINT', 'CMD', 'HEALTHCHECK'].includes(keyword)) {
      throw new Error(`the Dockerfile test does not know ${keyword}`);
    }
  }
}

async function run(stage: Stage, command: string, options: Record<string, string>, cwd: string, vars: Record<string, string>): Promise<void> {
  for (const part of command.split('&&').map((text) => text.trim())) {
    const words = part.split(/\s+/);
    if (words[0] === 'npm') {
      const cache = options.mount?.includes('type=cache') === true && options.mount.includes('target=/root/.npm') ? { npm_config_cache: npmCache } : {};
      const result = await runCommand('npm', [...words.slice(1), '--prefer-offline', '--no-audit', '--no-fund'], { cwd, env: { ...process.env, ...vars, ...cache }, timeoutMs: 300_000 });
      expect(result.code, `${stage.name}: ${part}\n${result.stderr}`).toBe(0);
    } else if (/apt-get install .*redis-server/.test(part)) {
      expect(existsSync('/usr/bin/redis-server'), 'redis-server, as the image installs it').toBe(true);
    } else if (/^mkdir -p \/\S+$/.test(part)) {
      await mkdir(inStage(stage.name, words[2]!), { recursive: true });
    } else if (!/^(apt-get update|rm -rf \/var\/lib\/apt\/lists\/\*|chown node:node \/\S+)$/.test(part)) {
      throw new Error(`the Dockerfile test does not know how to reproduce: RUN ${part}`);
    }
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'seatflow-image-'));
  context = path.join(work, 'context');
  await mkdir(context);
  await copyPackageSources(context);
  const stages = readDockerfile();
  for (const stage of stages) await build(stage);
  runtime = stages.at(-1)!;
}, 600_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The image's ENTRYPOINT and CMD, /app being the runtime stage's folder. */
function imageCommand(args?: string[]): { file: string; args: string[] } {
  const argsOf = (keyword: string) => JSON.parse(runtime.instructions.findLast((one) => one.keyword === keyword)!.args) as string[];
  const [file, ...entry] = argsOf('ENTRYPOINT').map((word) => (word.startsWith('/') ? inStage(runtime.name, word) : word));
  return { file: file === 'node' ? process.execPath : file!, args: [...entry, ...(args ?? argsOf('CMD'))] };
}

/** The HEALTHCHECK's CMD, /app being the runtime stage's folder, asking about `pid` instead of the container's PID 1. */
async function healthcheck(pid: number): Promise<number> {
  const line = runtime.instructions.findLast((one) => one.keyword === 'HEALTHCHECK')!.args;
  const [program, ...args] = JSON.parse(line.slice(line.indexOf('CMD ') + 4)) as string[];
  expect(program).toBe('node');
  const words = args.map((word) => (word.startsWith('/') ? inStage(runtime.name, word) : word));
  return (await runCommand(process.execPath, [...words, String(pid)], { cwd: inStage(runtime.name, '/app'), timeoutMs: 10_000 })).code;
}

describe('the Dockerfile, reproduced step by step', { timeout: 120_000 }, () => {
  it('is on a current Node LTS, and ships compiled JavaScript with production dependencies only', async () => {
    for (const stage of readDockerfile()) expect(stage.from).toMatch(/^node:(22|24)-/);
    const app = inStage(runtime.name, '/app');
    expect(existsSync(path.join(app, 'dist', 'cli', 'main.js')), 'the bundled CLI').toBe(true);
    expect(existsSync(path.join(app, 'src'))).toBe(false);
    for (const devOnly of ['tsx', 'vitest', 'eslint']) expect(existsSync(path.join(app, 'node_modules', devOnly)), devOnly).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', 'bullmq'))).toBe(true);
  });

  it('its entry point answers the default command (--help)', async () => {
    const { file, args } = imageCommand();
    const { code, stdout } = await runCommand(file, args, { cwd: inStage(runtime.name, '/app'), env: { PATH: process.env.PATH, ...env.get(runtime.name) } });
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: seatflow');
  });

  it('its entry point runs the HR offboarding example with --sim, state in the image’s SEATFLOW_HOME', async () => {
    const vars = env.get(runtime.name)!;
    const home = inStage(runtime.name, vars.SEATFLOW_HOME!);
    const { file, args } = imageCommand(['run', 'jobs/examples/hr-offboarding.csv', '--sim']);
    const { code, stdout, stderr } = await runCommand(file, args, { cwd: inStage(runtime.name, '/app'), env: { PATH: process.env.PATH, ...vars, SEATFLOW_HOME: home } });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('7 rows: 3 succeeded, 1 unchanged, 3 skipped');
    expect(await readdir(path.join(home, 'reports'))).toHaveLength(1);
  });

  it('has a HEALTHCHECK that asks serve for /readyz on its port, and fails once nothing answers there', async () => {
    const vars = env.get(runtime.name)!;
    const port = await freePort();
    const { file, args } = imageCommand(['serve', '--sim', '--host', '0.0.0.0', '--port', String(port)]);
    const serve = spawn(file, args, { cwd: inStage(runtime.name, '/app'), env: { PATH: process.env.PATH, ...vars, SEATFLOW_HOME: path.join(work, 'serve-home') }, stdio: 'ignore' });
    try {
      const deadline = Date.now() + 60_000;
      let code = await healthcheck(serve.pid!);
      while (code !== 0 && Date.now() < deadline && serve.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        code = await healthcheck(serve.pid!);
      }
      expect(code, 'the HEALTHCHECK while serve answers').toBe(0);
      serve.kill('SIGSTOP');
      expect(await healthcheck(serve.pid!), 'the HEALTHCHECK while serve is stopped').toBe(1);
    } finally {
      // SIGTERM, so that serve stops the private Redis it started.
      const exited = once(serve, 'exit');
      serve.kill('SIGCONT');
      serve.kill('SIGTERM');
      const timer = setTimeout(() => serve.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
  });
});
