import { defineConfig } from 'vitest/config';

/**
 * Tests that install OpenTelemetry's process-wide tracer provider: each file gets a fresh module
 * graph, so one file's provider never records another's spans.
 */
const TRACING = ['test/integration/tracing/**/*.test.ts', 'test/unit/tracing/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/setup/node-compile-cache.ts', 'test/setup/redis-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    fileParallelism: true,
    // Issue 32: three workers on two cores — the tests mostly wait on Redis, loopback servers and
    // child processes, so a third worker cut the suite from 499 s to 308 s (bench/README.md).
    maxWorkers: 3,
    // Issue 20: files and the tests in each run in a random order, so a test that leans on another's
    // effect fails. Vitest prints the seed ("Running tests with seed N"); `--sequence.seed=N` replays it.
    sequence: { shuffle: true },
    // Issue 32: test files and the product load through Node's own `import` (its type stripping, as
    // `npm start` runs them, with the compile cache) instead of Vite's module runner: no transform
    // step, and the import time vitest reports about halves (53 s to 26–32 s over a whole run).
    // The tests use neither vi.mock nor import.meta.vitest, which need the runner or its loader.
    experimental: { viteModuleRunner: false, nodeLoader: false },
    projects: [
      // Issue 32: the other files share each worker's module graph (`isolate: false`): importing the
      // product once per worker rather than once per file took the suite's import time from 283 s
      // to 24 s. Every test starts its own app under a fresh key prefix, and a test that changes
      // process.env puts it back; a module-level cache must key on what it depends on.
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: TRACING, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: TRACING, isolate: true } },
    ],
  },
});
