import { type Builtins, loadBuiltins, type PromptDeps } from '../../../src/prompts/index.ts';
import { testRedis } from '../../kit/redis.ts';

let cached: Promise<Builtins> | undefined;

/**
 * Prompt deps on the suite's real Redis, a fresh key prefix per call, the repository's own
 * built-in texts unless `builtins` is given (an upgraded copy, R-E6).
 */
export function promptWorld() {
  const { redis, keys } = testRedis();
  return async (builtins?: Builtins): Promise<PromptDeps> => {
    cached ??= loadBuiltins();
    return { redis, keys: keys(), builtins: builtins ?? (await cached), sizeCap: 200_000 };
  };
}

export const panel = { source: 'panel', who: 'alice' } as const;
