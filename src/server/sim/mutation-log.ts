import { currentChangeSource, type ChangeChannel } from './change-source.js';

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
  /** Who made it: the token's user, the admin of an Admin Center change; absent for the service's own changes. */
  actorId?: number;
  /** Through what: the API, the Admin Center, an identity-provider sync, or the service itself. */
  via: ChangeChannel;
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
  /** Appends a change; its actor and channel are the current change source's (change-source.ts). */
  record(entry: Omit<Mutation, 'seq' | 'at' | 'actorId' | 'via'>): Mutation;
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
      const source = currentChangeSource();
      const mutation: Mutation = { seq, at: new Date(now()).toISOString(), ...entry, via: source.via, ...(source.actorId === undefined ? {} : { actorId: source.actorId }) };
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
