import { defineConfig } from 'vitest/config';

// Integration tests start real Redis and reference servers; they are slower than unit tests but
// each one owns random ports and queue prefixes, so files may run in parallel.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/isolated-home.ts', 'test/setup/cli-bundle.ts'],
    // A hang detector, not a speed check (speed is measured in bench/): tests that start seatflow processes pay a
    // few seconds a command on a busy machine, and no test may depend on the machine being idle.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default'],
  },
});
