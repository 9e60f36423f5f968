/**
 * Every API request the reference server answered or its client gave up on (status 499), with its query and status: what a test reads to prove how a
 * client called the service (the page sizes of a plan against 12,000 users, say), where the mutation log only shows
 * changes. Never part of the API; `GET /_sim/requests` reads it. Keeps the newest `capacity` entries.
 */
export interface LoggedRequest {
  seq: number;
  /** ISO time of the sim clock. */
  at: string;
  method: string;
  /** The path without the query, as sent. */
  path: string;
  /** Query parameters; a repeated key keeps its values joined with commas. */
  query: Record<string, string>;
  /** The route's operation name, e.g. `listUsers`. */
  operation: string;
  status: number;
}

export interface RequestLogFilter {
  operation?: string;
  afterSeq?: number;
}

export interface RequestLog {
  record(entry: Omit<LoggedRequest, 'seq' | 'at'>): void;
  list(filter?: RequestLogFilter): LoggedRequest[];
  clear(): void;
}

export function createRequestLog(now: () => number, capacity = 100_000): RequestLog {
  let entries: LoggedRequest[] = [];
  let seq = 0;
  return {
    record(entry) {
      seq += 1;
      entries.push({ seq, at: new Date(now()).toISOString(), ...entry });
      // Trimmed in chunks, so a long benchmark does not copy the array on every request.
      if (entries.length > capacity * 1.25) entries = entries.slice(entries.length - capacity);
    },
    list(filter = {}) {
      return entries.filter(
        (entry) => (filter.operation === undefined || entry.operation === filter.operation) && (filter.afterSeq === undefined || entry.seq > filter.afterSeq),
      );
    },
    clear() {
      entries = [];
    },
  };
}

/** Query values as fastify parses them, flattened to one string each. */
export function flatQuery(query: unknown): Record<string, string> {
  if (query === null || typeof query !== 'object') return {};
  return Object.fromEntries(Object.entries(query as Record<string, unknown>).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : String(value)]));
}
