import { defineConfig } from 'vitest/config';
import { LongFirstSequencer } from './test/setup/long-first-sequencer.js';

// Integration tests start real Redis and reference servers; they are slower than unit tests but
// each one owns random ports and queue prefixes, so files may run in parallel.
export default defineConfig({
  test: {
    globalSetup: ['test/setup/isolated-home.ts', 'test/setup/cli-bundle.ts'],
    // A hang detector, not a speed check (speed is measured in bench/): tests that start seatflow processes pay a
    // few seconds a command on a busy machine, and no test may depend on the machine being idle.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: {
      // Three on two cores: the system tests wait on servers, processes and clocks much of the time (a full run kept the
      // two cores about 60% busy with two). The files of a fork share one module graph, as the unit tests' threads do:
      // importing src/ afresh for each of the 107 system files cost 285 CPU-s of collecting, shared 26 (vitest took
      // 1,455 CPU-s before; the whole .ci/run 1,048 after, and vitest 581 s instead of 719 s on a quiet clean clone).
      // No system file mocks, stubs or changes the environment; each one starts and closes its own servers, Redis and
      // processes. As many forks at the start as at most: with fewer, Tinypool retires an idle fork as the queue
      // empties, and a fork retired that way failed a run ("Terminating worker thread", two files never reported).
      forks: { maxForks: 3, minForks: 3, isolate: false },
      // The unit tests' pool: the files of a thread share one module graph. Importing src/ afresh for each of 140
      // files cost more than the tests themselves (collect 117 s of a 174 s run; shared: 11 s of 37 s). No unit test
      // keeps state between files: what one stubs (environment, timers) it restores.
      threads: { maxThreads: 2, minThreads: 1, isolate: false },
    },
    sequence: { sequencer: LongFirstSequencer },
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads' } },
      // Everything that starts servers, processes or a browser: in processes of their own (forks), apart from the unit tests.
      { extends: true, test: { name: 'system', include: ['test/**/*.test.ts'], exclude: ['test/unit/**'] } },
    ],
  },
});
