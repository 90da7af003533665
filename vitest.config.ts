import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/redis-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // Issue 20: files and the tests in each run in a random order, so a test that leans on another's
    // effect fails. Vitest prints the seed ("Running tests with seed N"); `--sequence.seed=N` replays it.
    sequence: { shuffle: true },
  },
});
