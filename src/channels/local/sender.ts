import type { Ctx } from '../../context.ts';
import type { Sender } from '../../outbox/effect.ts';

/**
 * The panel's local chat: the bot's replies and reactions are appended to the chat's log in
 * Redis, where the panel reads them.
 */
export function localSender(ctx: Ctx): Sender {
  return {
    async deliver(effect, key) {
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
