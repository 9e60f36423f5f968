import { readFileSync } from 'node:fs';

/**
 * The highest VmHWM (peak resident set) the kernel reported for `pid` while it ran, in MB: sampled from /proc every
 * 100 ms; call the returned function once the process ended.
 */
export function watchPeakRss(pid: number): () => number {
  let peakKb = 0;
  const sample = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // Gone: the last sample stands.
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    return peakKb / 1024;
  };
}
