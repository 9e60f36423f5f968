import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { runCommand } from './run-command.js';
import { freePort } from './redis-server.js';
import { imageEnv, type RecipeService } from './recipe-services.js';
import { ROOT } from './run-seatflow.js';

export interface RunningRecipe {
  /** The port of this machine a container port was given. */
  portOf(containerPort: number): number;
  /** What each service printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs a recipe's services on this machine, each command line as the recipe writes it. What a container engine or
 * systemd would provide is provided the plain way, and only that: each container port gets a free port of this
 * machine, service host names (and 0.0.0.0) become 127.0.0.1, volumes become folders under `workDir`, the image's
 * /app is this checkout, and the installed seatflow a unit names is its bin/seatflow.
 */
export async function startRecipe(services: readonly RecipeService[], options: { hosts: readonly string[]; workDir: string }): Promise<RunningRecipe> {
  const containerPorts = new Set<number>([6379]);
  for (const service of services) {
    service.argv.forEach((word, i) => {
      if (['--port', '--metrics-port', '-p'].includes(service.argv[i - 1] ?? '')) containerPorts.add(Number(word));
    });
    if ('http' in service.health) containerPorts.add(service.health.http.port);
  }
  const ports = new Map<number, number>();
  for (const port of containerPorts) ports.set(port, await freePort());
  const home = path.join(options.workDir, 'seatflow-home');
  mkdirSync(home, { recursive: true });

  const local = (text: string): string => {
    let out = text;
    for (const host of [...options.hosts, 'localhost', '0.0.0.0']) out = out.replaceAll(`//${host}:`, '//127.0.0.1:').replace(new RegExp(`^${host.replaceAll('.', '\\.')}$`), '127.0.0.1');
    for (const [inside, outside] of ports) out = out.replace(new RegExp(`(?<![\\d.])${inside}(?!\\d)`, 'g'), String(outside));
    return out.replaceAll('/var/lib/seatflow', home);
  };
  const program = (argv: string[]): string[] => {
    const [first, ...rest] = argv;
    if (first === 'node') return [process.execPath, ...rest.map((word, i) => (i === 0 && word.startsWith('/app/') ? path.join(ROOT, word.slice('/app/'.length)) : word))];
    if (first === 'seatflow') return [process.execPath, path.join(ROOT, 'bin/seatflow'), ...rest];
    return argv;
  };

  const children: { name: string; child: ChildProcess; output: string[] }[] = [];
  const start = (service: RecipeService): void => {
    let argv = program(service.argv.map(local));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: options.workDir, ...(service.program === 'seatflow' ? imageEnv() : {}), ...service.env };
    for (const key of Object.keys(env)) env[key] = local(env[key]!);
    if (service.program === 'redis') {
      const dir = path.join(options.workDir, `${service.name}-data`);
      mkdirSync(dir, { recursive: true });
      // The container's volume, and its network: only loopback, its port unless the command line names one.
      argv = [...argv, '--dir', dir, '--bind', '127.0.0.1', ...(argv.includes('--port') ? [] : ['--port', String(ports.get(6379))])];
    }
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    children.push({ name: service.name, child, output });
  };
  const healthy = async (service: RecipeService): Promise<void> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      if ('http' in service.health) {
        const response = await fetch(`http://127.0.0.1:${ports.get(service.health.http.port)}${service.health.http.path}`).catch(() => undefined);
        if (response?.status === 200) return;
      } else {
        const [file, ...args] = program(service.health.exec.map(local));
        if ((await runCommand(file!, args, { cwd: options.workDir, timeoutMs: 10_000 })).code === 0) return;
      }
      const exited = children.find((entry) => entry.name === service.name && entry.child.exitCode !== null);
      if (exited !== undefined || Date.now() > deadline) throw new Error(`${service.name} did not answer its health check${exited ? ` (exited ${exited.child.exitCode})` : ''}:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const output = () => children.map((entry) => `--- ${entry.name}\n${entry.output.join('')}`).join('\n');

  const redis = services.filter((service) => service.program === 'redis');
  const rest = services.filter((service) => service.program !== 'redis');
  try {
    redis.forEach(start);
    await Promise.all(redis.map(healthy));
    rest.forEach(start);
    await Promise.all(rest.map(healthy));
  } catch (error) {
    await stopAll(children.map((entry) => entry.child));
    throw error;
  }
  return {
    portOf: (containerPort) => ports.get(containerPort) ?? containerPort,
    output,
    stop: () => stopAll(children.map((entry) => entry.child)),
  };
}

/** SIGTERM, as an orchestrator stops a service; seatflow lets active rows finish first. */
async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.reverse().map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}
