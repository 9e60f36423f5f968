import { createPrng, type Prng } from './prng.js';

/**
 * Fault injection (docs/reference-server.md#faults). A spec is a comma list of `KIND:PROBABILITY` items:
 * - `503:0.1`, `500:0.02`, `429:0.05`, any status 4xx/5xx: answer that status instead of serving the request;
 * - `reset:0.01`: cut the connection without an answer;
 * - `delay:250ms:0.05`: wait that long (ms or s), then serve normally;
 * - `500-after:0.05`, `reset-after:0.05`: serve the request (the change is made) and then answer 500 or cut the
 *   connection, so the caller cannot tell whether it happened.
 * At most one fault applies to a request; probabilities add up in the order given. An item ending in `:writes`
 * (`reset-after:1:writes`) applies only to requests that may change something (not GET or HEAD): a test can lose the
 * answer of a change without losing the reads around it.
 */
export type Fault = (
  | { kind: 'status'; status: number; probability: number }
  | { kind: 'reset'; probability: number }
  | { kind: 'delay'; ms: number; probability: number }
  | { kind: 'status-after'; status: number; probability: number }
  | { kind: 'reset-after'; probability: number }
) & { writesOnly?: true };

export class FaultSpecError extends Error {}

function parseProbability(text: string | undefined, item: string): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new FaultSpecError(`fault "${item}": probability must be a number from 0 to 1`);
  }
  return value;
}

function parseDuration(text: string, item: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!match) throw new FaultSpecError(`fault "${item}": delay must look like 250ms or 2s`);
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1);
}

export function parseFaultSpec(spec: string): Fault[] {
  const faults: Fault[] = [];
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (item === '' || item === 'off' || item === 'none') continue;
    const parts = item.split(':');
    const writesOnly = parts.length > 2 && parts.at(-1)?.toLowerCase() === 'writes';
    if (writesOnly) parts.pop();
    const scope = writesOnly ? { writesOnly: true as const } : {};
    const head = (parts[0] ?? '').toLowerCase();
    if (head === 'delay') {
      if (parts.length !== 3) throw new FaultSpecError(`fault "${item}": write delay:250ms:0.05`);
      faults.push({ kind: 'delay', ms: parseDuration(parts[1] ?? '', item), probability: parseProbability(parts[2], item), ...scope });
      continue;
    }
    if (parts.length !== 2) throw new FaultSpecError(`fault "${item}": write KIND:PROBABILITY, e.g. 503:0.1 (or 503:0.1:writes)`);
    const probability = parseProbability(parts[1], item);
    const after = /^(\d{3}|reset)-after$/.exec(head);
    const base = after ? (after[1] ?? '') : head;
    if (base === 'reset') {
      faults.push(after ? { kind: 'reset-after', probability, ...scope } : { kind: 'reset', probability, ...scope });
    } else if (/^[45]\d\d$/.test(base)) {
      const status = Number(base);
      faults.push(after ? { kind: 'status-after', status, probability, ...scope } : { kind: 'status', status, probability, ...scope });
    } else {
      throw new FaultSpecError(`fault "${item}": unknown kind ${head}`);
    }
  }
  const total = faults.reduce((sum, f) => sum + f.probability, 0);
  if (total > 1 + 1e-9) throw new FaultSpecError(`fault probabilities add up to ${total}, more than 1`);
  return faults;
}

export interface FaultInjector {
  /** The fault for the next request (of that HTTP method), or undefined. */
  draw(method?: string): Fault | undefined;
  configure(spec: string, seed?: number): void;
  describe(): { spec: string; seed: number; faults: Fault[] };
}

export function createFaultInjector(spec = '', seed = 1): FaultInjector {
  let faults = parseFaultSpec(spec);
  let current = { spec, seed };
  let prng: Prng = createPrng(seed);
  return {
    draw(method = 'GET') {
      if (faults.length === 0) return undefined;
      let r = prng.next();
      const reads = method === 'GET' || method === 'HEAD';
      for (const fault of faults) {
        if (r < fault.probability) return fault.writesOnly === true && reads ? undefined : fault;
        r -= fault.probability;
      }
      return undefined;
    },
    configure(nextSpec, nextSeed = current.seed) {
      faults = parseFaultSpec(nextSpec);
      current = { spec: nextSpec, seed: nextSeed };
      prng = createPrng(nextSeed);
    },
    describe: () => ({ ...current, faults: [...faults] }),
  };
}

/** errorCode sent with an injected status, matching docs/service.md#error-codes. */
export function faultErrorCode(status: number): number {
  if (status === 429) return 4003;
  if (status === 503) return 4001;
  if (status >= 500) return 4000;
  return 1008;
}
