import type { Redis } from 'ioredis';
import type { Keys } from '../store/keys.ts';
import { USAGE_FIELDS } from './transcript-store.ts';

/** What a session's model requests have cost over its life (issue 12: prompt-cache economy). */
export interface SessionUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the provider served from its prefix cache. */
  cacheHitTokens: number;
}

const FIELDS = Object.keys(USAGE_FIELDS) as (keyof typeof USAGE_FIELDS)[];

export const noUsage = (): SessionUsage => ({
  requests: 0,
  promptTokens: 0,
  completionTokens: 0,
  cacheHitTokens: 0,
});

/** One session's totals, recorded with each model step (`appendStep`); zeros for a session without any. */
export async function sessionUsage(redis: Redis, keys: Keys, sessionId: string): Promise<SessionUsage> {
  const values = await redis.hmget(keys.transcriptMeta(sessionId), ...FIELDS.map((f) => USAGE_FIELDS[f]));
  const usage = noUsage();
  FIELDS.forEach((f, i) => {
    usage[f] = Number(values[i] ?? 0);
  });
  return usage;
}

/** The sum of several sessions' usage (a ticket's). */
export function addUsage(all: readonly SessionUsage[]): SessionUsage {
  const sum = noUsage();
  for (const u of all) for (const f of FIELDS) sum[f] += u[f];
  return sum;
}
