import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { parseRecord } from '../store/parse-record.ts';

/**
 * A scan under way (issue 33 item 6): Feishu's device code — whoever holds it gets the app's
 * secret once the person confirms, so it never leaves the server — the accounts host it is polled
 * at, the interval Feishu asks for, and the panel session that began it (only that one polls).
 */
export const RegistrationSchema = z.object({
  sessionId: z.string(),
  deviceCode: z.string(),
  base: z.string(),
  intervalMs: z.number().int().positive(),
  expiresAt: z.number(),
  /** Moved to Lark's accounts host once already (the SDK does it once at most). */
  switched: z.boolean(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

type StoreCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'now'>;

/** Kept a minute past Feishu's expiry, so a late poll is told "expired" rather than "unknown". */
const GRACE_SECONDS = 60;

/** The owner of `feishuAppRegistration` and `feishuAppPollGate`. */
export async function saveRegistration(ctx: StoreCtx, id: string, r: Registration): Promise<void> {
  const ttl = Math.ceil(Math.max(0, r.expiresAt - ctx.now()) / 1000) + GRACE_SECONDS;
  await ctx.redis.set(
    ctx.keys.feishuAppRegistration(id),
    JSON.stringify(RegistrationSchema.parse(r)),
    'EX',
    ttl,
  );
}

export async function loadRegistration(ctx: StoreCtx, id: string): Promise<Registration | null> {
  const key = ctx.keys.feishuAppRegistration(id);
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, RegistrationSchema, raw, key) : null;
}

/** A changed interval or host, kept under the same expiry; nothing when the scan ended meanwhile. */
export async function updateRegistration(ctx: StoreCtx, id: string, r: Registration): Promise<void> {
  const json = JSON.stringify(RegistrationSchema.parse(r));
  await ctx.redis.set(ctx.keys.feishuAppRegistration(id), json, 'KEEPTTL', 'XX');
}

/** Ends a scan (created, refused, expired): true for the one call that found it still there. */
export async function endRegistration(ctx: StoreCtx, id: string): Promise<boolean> {
  const [removed] = await Promise.all([
    ctx.redis.del(ctx.keys.feishuAppRegistration(id)),
    ctx.redis.del(ctx.keys.feishuAppPollGate(id)),
  ]);
  return removed === 1;
}

/**
 * Claims the next poll for `holdMs` (SET NX PX), so two tabs or two web processes never poll
 * Feishu at once or sooner than it asked (it answers `slow_down` to that). Answers 0 when
 * claimed, else how many milliseconds until a poll is due.
 */
export async function claimPoll(ctx: StoreCtx, id: string, holdMs: number): Promise<number> {
  const key = ctx.keys.feishuAppPollGate(id);
  if ((await ctx.redis.set(key, '1', 'PX', holdMs, 'NX')) === 'OK') return 0;
  return Math.max(1, await ctx.redis.pttl(key));
}

/** After a poll: the next one no sooner than `ms` from now. */
export async function spacePoll(ctx: StoreCtx, id: string, ms: number): Promise<void> {
  await ctx.redis.set(ctx.keys.feishuAppPollGate(id), '1', 'PX', ms);
}
