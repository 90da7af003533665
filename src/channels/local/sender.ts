import type { Ctx } from '../../context.ts';
import type { Sender } from '../../outbox/effect.ts';
import { appendBotEntry, upsertStatusEntry } from './local-chat-log.ts';

/**
 * The panel's local chat: the bot's replies and reactions are appended to the chat's log in
 * Redis, where the panel reads them; a ticket's status message (issue 9) is one entry, replaced
 * in place by each edit.
 */
export function localSender(ctx: Ctx): Sender {
  return {
    async deliver(effect, key) {
      if (effect.op === 'local.status') {
        await upsertStatusEntry(ctx, effect.chatId, { id: effect.statusId, at: ctx.now(), ...effect });
        return { id: effect.statusId };
      }
      if (effect.op !== 'local.reply' && effect.op !== 'local.react') {
        throw new Error(`local sender cannot deliver ${effect.op}`);
      }
      const id = `lm-${key.replace(/[^\w-]/g, '_').slice(0, 60)}`;
      const chatId = effect.op === 'local.reply' ? effect.chatId : 'reactions';
      await appendBotEntry(ctx, chatId, { id, at: ctx.now(), ...effect });
      return { id };
    },
  };
}
