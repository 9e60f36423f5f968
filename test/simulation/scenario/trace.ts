/** One line of a run's journal: what the simulation did or saw, at which service time. */
export interface TraceEntry {
  /** Service time (epoch ms). */
  at: number;
  /** The scenario event it belongs to, if any. */
  eventSeq?: number;
  what: string;
}

/**
 * The journal of a run: every operator action with its answer, every fault injected and healed, the clock's moves.
 * A violation is printed with the entries around it, so that a failing seed reads as a story.
 */
export interface Trace {
  note(at: number, what: string, eventSeq?: number): void;
  entries(): readonly TraceEntry[];
}

export function createTrace(echo?: (line: string) => void): Trace {
  const entries: TraceEntry[] = [];
  return {
    note(at, what, eventSeq) {
      const entry = { at, what, ...(eventSeq === undefined ? {} : { eventSeq }) };
      entries.push(entry);
      echo?.(`${new Date(at).toISOString()} ${eventSeq === undefined ? '' : `#${eventSeq} `}${what}`);
    },
    entries: () => entries,
  };
}
