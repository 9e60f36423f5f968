/** One state change, as the mutation log keeps it (docs/reference-server.md#mutation-log). */
export interface Mutation {
  seq: number;
  /** ISO time of the sim clock. */
  at: string;
  /** Operation name, e.g. `deactivateUser`. */
  operation: string;
  resourceType: string;
  resourceId: number | string;
  /** The user the change is about, when it is about one. */
  userId?: number;
  summary: string;
}

export interface MutationFilter {
  userId?: number;
  operation?: string;
  resourceType?: string;
  /** Only entries with seq greater than this. */
  afterSeq?: number;
}

export interface MutationLog {
  record(entry: Omit<Mutation, 'seq' | 'at'>): Mutation;
  list(filter?: MutationFilter): Mutation[];
  clear(): void;
  size(): number;
}

export function createMutationLog(now: () => number): MutationLog {
  let entries: Mutation[] = [];
  let seq = 0;
  return {
    record(entry) {
      seq += 1;
      const mutation: Mutation = { seq, at: new Date(now()).toISOString(), ...entry };
      entries.push(mutation);
      return mutation;
    },
    list(filter = {}) {
      const op = filter.operation?.toLowerCase();
      const type = filter.resourceType?.toLowerCase();
      return entries.filter(
        (m) =>
          (filter.userId === undefined || m.userId === filter.userId) &&
          (op === undefined || m.operation.toLowerCase() === op) &&
          (type === undefined || m.resourceType.toLowerCase() === type) &&
          (filter.afterSeq === undefined || m.seq > filter.afterSeq),
      );
    },
    clear() {
      entries = [];
    },
    size: () => entries.length,
  };
}
