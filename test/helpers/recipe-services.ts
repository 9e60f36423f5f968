import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from './run-seatflow.js';

/**
 * What a deployment recipe starts, read from the recipe itself: each service's command line as written (the image's
 * entry point from the Dockerfile, then the recipe's command), its environment, and its health check. The recipe
 * test runs these on this machine (recipes.test.ts): nothing here invents a command line.
 */
export interface RecipeService {
  name: string;
  /** What the image or unit runs: redis-server, or seatflow (the Dockerfile's entry point, or the installed binary). */
  program: 'redis' | 'seatflow';
  argv: string[];
  env: Record<string, string>;
  health: { http: { port: number; path: string } } | { exec: string[] };
}

const dockerfile = () => readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

/** The runtime image's ENTRYPOINT (the last one of the Dockerfile), e.g. ["node", "/app/bin/seatflow"]. */
export function imageEntrypoint(): string[] {
  const lines = dockerfile().split('\n').filter((line) => line.startsWith('ENTRYPOINT '));
  return JSON.parse(lines.at(-1)!.slice('ENTRYPOINT '.length)) as string[];
}

const programOf = (image: string): RecipeService['program'] => (image.startsWith('redis') ? 'redis' : image.startsWith('seatflow') ? 'seatflow' : unknownImage(image));
function unknownImage(image: string): never {
  throw new Error(`the recipe test does not know the image ${image}`);
}

/** `${NAME}`, `${NAME:-default}` and `${NAME:?error}` as Docker Compose interpolates them. */
export function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_match, name: string, kind: string | undefined, rest: string) => {
    const value = vars[name];
    if (value !== undefined && value !== '') return value;
    if (kind === '-') return rest;
    if (kind === '?') throw new Error(`compose refuses: ${rest}`);
    return '';
  });
}

/** deploy/compose.yaml: every service, with compose's merge keys and interpolation. */
export function composeServices(vars: Record<string, string>): RecipeService[] {
  const compose = parse(readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image: string; command: string[]; environment?: Record<string, string>; healthcheck: { test: string[] } }>;
  };
  return Object.entries(compose.services).map(([name, service]) => {
    const program = programOf(service.image);
    const [form, ...test] = service.healthcheck.test;
    if (form !== 'CMD') throw new Error(`${name}: healthcheck must use the CMD form`);
    return {
      name,
      program,
      argv: program === 'seatflow' ? [...imageEntrypoint(), ...service.command] : service.command,
      env: Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), vars)])),
      health: { exec: test },
    };
  });
}

/** A systemd unit's [Service] settings, each key with every value it is given. */
function unitSettings(file: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) section = line;
    else if (section === '[Service]') {
      const at = line.indexOf('=');
      const key = line.slice(0, at);
      settings.set(key, [...(settings.get(key) ?? []), line.slice(at + 1)]);
    }
  }
  return settings;
}

/** KEY=VALUE lines, as systemd's EnvironmentFile and .env files hold them. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/**
 * deploy/systemd: each unit's ExecStart with its Environment= lines (%S is systemd's state directory, `stateDir`) and
 * its EnvironmentFile (`envFile`: the operator's filled copy of deploy/env.example); the health check is the /readyz
 * its command line serves. The Redis is the machine's redis-server with deploy/systemd/redis-seatflow.conf.
 */
export function systemdServices(options: { stateDir: string; envFile: Record<string, string> }): RecipeService[] {
  const units = ['seatflow-worker.service', 'seatflow-serve.service'].map((unit) => {
    const settings = unitSettings(path.join(ROOT, 'deploy/systemd', unit));
    const argv = settings.get('ExecStart')![0]!.split(/\s+/);
    // By name, so systemd finds it wherever npm put it (/usr/local/bin, or /usr/bin with Debian's or NodeSource's Node).
    if (argv[0] !== 'seatflow') throw new Error(`${unit}: ExecStart runs ${argv[0]}, not the installed seatflow by name`);
    const env: Record<string, string> = {};
    for (const assignment of settings.get('Environment') ?? []) {
      const at = assignment.indexOf('=');
      env[assignment.slice(0, at)] = assignment.slice(at + 1).replaceAll('%S', options.stateDir);
    }
    Object.assign(env, options.envFile);
    const port = Number(argv[argv.indexOf(argv.includes('--metrics-port') ? '--metrics-port' : '--port') + 1]);
    return { name: unit, program: 'seatflow' as const, argv, env, health: { http: { port, path: '/readyz' } } };
  });
  const redis: RecipeService = {
    name: 'redis-server',
    program: 'redis',
    argv: ['redis-server', path.join(ROOT, 'deploy/systemd/redis-seatflow.conf'), '--port', '6379'],
    env: {},
    health: { exec: ['redis-cli', '-p', '6379', 'ping'] },
  };
  return [redis, ...units];
}

interface K8sContainer {
  image: string;
  command?: string[];
  args?: string[];
  envFrom?: { configMapRef?: { name: string } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } }[];
  readinessProbe: { httpGet?: { path: string; port: number }; exec?: { command: string[] } };
}

/**
 * deploy/kubernetes: every container of every Deployment and StatefulSet, its environment from the ConfigMap and the
 * Secret (`secret`: the operator's values for the Secret's keys), its readiness probe.
 */
export function kubernetesServices(secret: Record<string, string>): RecipeService[] {
  const dir = path.join(ROOT, 'deploy/kubernetes');
  const kustomization = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
  const docs = kustomization.resources.flatMap((file) => parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => doc.toJS() as { kind: string; metadata: { name: string }; data?: Record<string, string>; stringData?: Record<string, string>; spec?: { template?: { spec: { containers: K8sContainer[] } } } }));
  const maps = new Map(docs.filter((doc) => doc.kind === 'ConfigMap').map((doc) => [doc.metadata.name, doc.data ?? {}]));
  const secrets = new Map(docs.filter((doc) => doc.kind === 'Secret').map((doc) => [doc.metadata.name, Object.fromEntries(Object.keys(doc.stringData ?? {}).map((key) => [key, secret[key] ?? '']))]));
  const services: RecipeService[] = [];
  for (const doc of docs.filter((one) => one.kind === 'Deployment' || one.kind === 'StatefulSet')) {
    for (const container of doc.spec!.template!.spec.containers) {
      const program = programOf(container.image);
      const env: Record<string, string> = {};
      for (const from of container.envFrom ?? []) Object.assign(env, maps.get(from.configMapRef!.name));
      for (const item of container.env ?? []) {
        const ref = item.valueFrom?.secretKeyRef ?? item.valueFrom?.configMapKeyRef;
        env[item.name] = item.value ?? (item.valueFrom?.secretKeyRef !== undefined ? secrets.get(ref!.name)?.[ref!.key] : maps.get(ref!.name)?.[ref!.key]) ?? '';
      }
      // A container's command replaces the image's entry point; its args follow it.
      const argv = [...(container.command ?? (program === 'seatflow' ? imageEntrypoint() : [])), ...(container.args ?? [])];
      const probe = container.readinessProbe;
      services.push({ name: doc.metadata.name, program, argv, env, health: probe.httpGet !== undefined ? { http: probe.httpGet } : { exec: probe.exec!.command } });
    }
  }
  return services;
}

/** The runtime image's ENV lines (NODE_ENV, SEATFLOW_HOME…): what every seatflow container starts with. */
export function imageEnv(): Record<string, string> {
  const lines = dockerfile().split('\n');
  const runtime = lines.slice(lines.findLastIndex((line) => line.startsWith('FROM ')));
  return Object.fromEntries(runtime.filter((line) => line.startsWith('ENV ')).map((line) => line.slice(4).split('=', 2) as [string, string]));
}
