import { sourceNodeArgs } from '../../src/cli/source-node.ts';

/**
 * `[process.execPath, ...NODE_TS, 'src/main.ts']`: a TypeScript entry point as its own process,
 * the way `npm start` runs it — Node's own type stripping where it has it, else tsx.
 */
export const NODE_TS = sourceNodeArgs();

/**
 * Node's compile cache (test/setup/node-compile-cache.ts names one for the run) for a child given only
 * a few variables: each of the suite's many node processes then compiles the product once.
 */
export function nodeCacheEnv(): Record<string, string> {
  const dir = process.env.NODE_COMPILE_CACHE;
  return dir ? { NODE_COMPILE_CACHE: dir } : {};
}
