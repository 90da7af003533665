import type { TriggerCard } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { runScript, script } from '../store/run-script.ts';

const DAY_SECONDS = 24 * 3600;

/**
 * KEYS: the outsider's mark in this place, the place's counter. ARGV: the budget, the day (s), the
 * card. One script: the mark and the count change together, so an outsider already refused today
 * never spends the budget, and two workers cannot both take its last refusal. The mark names the
 * card it was taken for: the same card asking again (its routing retried after a crash between the
 * take and the queueing) gets its refusal, without spending more.
 */
const TAKE_REFUSAL = script(`
local marked = redis.call('GET', KEYS[1])
if marked then
  if marked == ARGV[3] then return 1 end
  return 0
end
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
if spent >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[2])
if redis.call('INCR', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
return 1
`);

/** Where a refusal is counted: the card's repository or chat; the panel's chat is never refused. */
function placeOf(card: TriggerCard): string | undefined {
  const o = card.origin;
  if (o.source === 'github') return `github:${o.repo.toLowerCase()}`;
  if (o.source === 'feishu') return `feishu:${o.chatId}`;
  return undefined;
}

/**
 * Issue 45: may this outsider's request get its polite refusal? One per outsider per place a day,
 * and none once the place has had `REFUSALS_PER_PLACE_PER_DAY` today: 45 mentions from accounts
 * without permission got 20 refusals and held a writer's acknowledgement back 57 s behind them.
 */
export async function takeRefusal(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config'>,
  card: TriggerCard,
): Promise<boolean> {
  const place = placeOf(card);
  if (!place) return false;
  const budget = ctx.config.REFUSALS_PER_PLACE_PER_DAY;
  const keys = [ctx.keys.refusedIn(place, card.author.id.toLowerCase()), ctx.keys.refusalBudget(place)];
  return (await runScript(ctx.redis, TAKE_REFUSAL, keys, [budget, DAY_SECONDS, card.id])) === 1;
}
