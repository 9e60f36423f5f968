/** How often a progress line may be written: on a terminal it is rewritten in place; elsewhere each is a new line. */
const TERMINAL_EVERY_MS = 250;
const LOG_EVERY_MS = 10_000;

export interface ReadProgress {
  /** The rows read so far. */
  onRowsRead(rows: number): void;
  /** Reading ended: a terminal's line is finished with a line break. */
  done(): void;
}

/**
 * "Reading the manifest: 350,000 rows…" while a large manifest is read, on stderr, so it never mixes with a plan or
 * JSON on stdout. On a terminal one line is rewritten in place, four times a second at most; elsewhere (CI, a log
 * file) a line every 10 s at most, so a small file prints nothing and a large one a few lines.
 */
export function createReadProgress(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): ReadProgress {
  const tty = stream.isTTY === true;
  const started = now();
  let last = started;
  let shown = false;
  return {
    onRowsRead(rows) {
      const at = now();
      if (at - last < (tty ? TERMINAL_EVERY_MS : LOG_EVERY_MS)) return;
      last = at;
      const line = `Reading the manifest: ${rows.toLocaleString('en-US')} rows (${((at - started) / 1000).toFixed(0)} s)…`;
      stream.write(tty ? `\r${line}` : `${line}\n`);
      shown = true;
    },
    done() {
      if (shown && tty) stream.write('\n');
    },
  };
}
