import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { readRecord, writeRecord } from '../../store/parse-record.ts';

type CacheCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** What the contact API said of one person: their name, or the code it refused the look-up with. */
export type CachedName = { name: string } | { failed: number };

const CachedNameSchema = z.union([
  z.object({ name: z.string().min(1).max(200) }),
  z.object({ failed: z.number().int() }),
]) satisfies z.ZodType<CachedName, unknown>;

/**
 * A name is kept a day (people rarely rename); a refusal ten minutes, so a granted scope shows
 * soon; Feishu not reached (`failed: -1`) a minute.
 */
export const NAME_TTL_SECONDS = 86_400;
export const FAILED_TTL_SECONDS = 600;
export const UNREACHED_TTL_SECONDS = 60;

const ttlOf = (entry: CachedName): number =>
  'name' in entry ? NAME_TTL_SECONDS : entry.failed === -1 ? UNREACHED_TTL_SECONDS : FAILED_TTL_SECONDS;

/** The owner of `feishuPersonName`: the cached answer for an open_id, or undefined (unknown, or unreadable). */
export async function cachedName(ctx: CacheCtx, openId: string): Promise<CachedName | undefined> {
  const key = ctx.keys.feishuPersonName(openId);
  const raw = await ctx.redis.get(key);
  if (raw === null) return undefined;
  const read = readRecord(ctx, CachedNameSchema, raw, key);
  return read.ok ? read.value : undefined;
}

/** Keeps an answer for its TTL (one that would fail its schema is logged and not kept). */
export async function cacheName(ctx: CacheCtx, openId: string, entry: CachedName): Promise<void> {
  const key = ctx.keys.feishuPersonName(openId);
  const write = writeRecord(ctx, CachedNameSchema, entry, key);
  if (!write.ok) return;
  await ctx.redis.set(key, write.json, 'EX', ttlOf(entry));
}
