import type { Ctx } from '../context.ts';

/**
 * Sliding-window limiter shared by every worker process: at most `limit` sends per `windowMs`
 * for one scope. Returns 0 when the send may go now (and counts it), else how long to wait.
 * One script, so two workers can't both take the last slot.
 */
const TAKE_SLOT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window * 2)
return 0
`;

/** Takes a send slot in `scope`'s window (`rateWindow`, the record this module owns). */
export async function takeSlot(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  scope: string,
  rule: { limit: number; windowMs: number },
  member: string,
  now = Date.now(),
): Promise<number> {
  const key = ctx.keys.rateWindow(scope);
  return (await ctx.redis.eval(
    TAKE_SLOT,
    1,
    key,
    now,
    rule.windowMs,
    rule.limit,
    `${now}-${member}`,
  )) as number;
}

/**
 * By the scope's kind (before its first `:`): Feishu allows 5 messages per second per chat;
 * GitHub's secondary limits want content creation spread out — comments 20 a minute per
 * repository, and reactions within the account's 80 content-creating requests a minute (GitHub's
 * documented secondary limit), since the client spaces writes per repository only (issue 18).
 */
export const RATE_LIMITS: Record<string, { limit: number; windowMs: number }> = {
  // 5 per 1.1 s: the slot is taken before the request leaves, and Feishu counts on arrival —
  // a send held up 100 ms or more (a busy process, the network) would otherwise bunch six into
  // Feishu's second (seen in platform-errors at load 6 on two cores: 6 within 900 ms).
  feishu: { limit: 5, windowMs: 1100 },
  github: { limit: 20, windowMs: 60_000 },
  'github-account': { limit: 80, windowMs: 60_000 },
};
