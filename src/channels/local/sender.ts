import type { Ctx } from '../../context.ts';
import type { Sender } from '../../outbox/effect.ts';

/** Replaces the text of the chat entry with id ARGV[1], or appends ARGV[2] when there is none. */
const UPSERT_STATUS = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for i, raw in ipairs(items) do
  local ok, entry = pcall(cjson.decode, raw)
  if ok and type(entry) == 'table' and entry.id == ARGV[1] then
    entry.text = ARGV[3]
    redis.call('LSET', KEYS[1], i - 1, cjson.encode(entry))
    return 0
  end
end
redis.call('RPUSH', KEYS[1], ARGV[2])
return 1
`;

/**
 * The panel's local chat: the bot's replies and reactions are appended to the chat's log in
 * Redis, where the panel reads them; a ticket's status message (issue 9) is one entry, replaced
 * in place by each edit.
 */
export function localSender(ctx: Ctx): Sender {
  return {
    async deliver(effect, key) {
      if (effect.op === 'local.status') {
        const entry = { id: effect.statusId, at: ctx.now(), ...effect };
        await ctx.redis.eval(
          UPSERT_STATUS,
          1,
          ctx.keys.localChat(effect.chatId),
          effect.statusId,
          JSON.stringify(entry),
          effect.text,
        );
        return { id: effect.statusId };
      }
      if (effect.op !== 'local.reply' && effect.op !== 'local.react') {
        throw new Error(`local sender cannot deliver ${effect.op}`);
      }
      const id = `lm-${key.replace(/[^\w-]/g, '_').slice(0, 60)}`;
      const chatId = effect.op === 'local.reply' ? effect.chatId : 'reactions';
      const entry = { id, at: ctx.now(), ...effect };
      await ctx.redis.rpush(ctx.keys.localChat(chatId), JSON.stringify(entry));
      return { id };
    },
  };
}
