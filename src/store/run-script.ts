import { createHash } from 'node:crypto';
import type { Ctx } from '../context.ts';

/** A Lua script with its SHA1, so the common path sends only the hash (EVALSHA). */
export interface Script {
  source: string;
  sha: string;
}

export const script = (source: string): Script => ({
  source,
  sha: createHash('sha1').update(source).digest('hex'),
});

/**
 * Runs a script by hash and falls back to sending its source once when Redis has not cached it
 * (after a restart or SCRIPT FLUSH). Every key the script touches is passed in `keys`, so it also
 * runs on Redis Cluster with a hash-tagged prefix.
 */
export async function runScript(redis: Ctx['redis'], s: Script, keys: string[], args: (string | number)[]) {
  try {
    return (await redis.evalsha(s.sha, keys.length, ...keys, ...args)) as unknown;
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return (await redis.eval(s.source, keys.length, ...keys, ...args)) as unknown;
  }
}
