import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import {
  type FeishuItem,
  feishuClient,
  feishuMessage,
  getMessage,
  listMessages,
} from '../../sources/feishu-reads.ts';
import { sourceScope } from '../../sources/source-scope.ts';
import { capBlocks, renderMessage } from '../../sources/source-text.ts';
import type { TurnScope } from '../turn-scope.ts';
import { readFailure, ticketCard } from './read-source-tools.ts';

/**
 * `read_chat({ what, id?, card?, minutes?, page_token?, page_size? })` (R-H6): a Feishu message
 * (the parent of a reply), a thread, or the chat around one of the ticket's cards — in the
 * ticket's own chats only: an answer from another chat is refused before any of it is shown.
 */
export function readChatTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'read_chat',
    description:
      'Read Feishu messages of this ticket’s chats: what = message (id: an om_… message id, e.g. the one a card replies to), thread (id: a thread omt_… or a message in it), or around (card: a card of this ticket; the chat from minutes before to minutes after it, default 30). Pages: page_size (≤ 50) and the page_token an answer names. Other chats are refused.',
    parameters: z.object({
      what: z.enum(['message', 'thread', 'around']),
      id: z
        .string()
        .regex(/^[\w-]{1,100}$/)
        .optional(),
      card: z.string().min(1).optional(),
      minutes: z.number().int().min(1).max(1440).optional(),
      page_token: z.string().max(500).optional(),
      page_size: z.number().int().min(1).max(50).optional(),
    }),
    async run(a) {
      const client = feishuClient(ctx);
      if (!client) return toolError('Feishu is not configured in this deployment');
      const allowed = await sourceScope(ctx, scope.ticket, scope.batch.values());
      const outside = (items: FeishuItem[]) => items.find((i) => !i.chat_id || !allowed.chats.has(i.chat_id));
      const refuse = (what: string) => toolError(`refused: ${what} is not in a chat of this ticket (R-H6)`);
      const render = (items: FeishuItem[]) =>
        Promise.all(items.map(async (i) => renderMessage(await feishuMessage(ctx, i))));
      const more = (next: string | undefined) =>
        next ? `[more: call again with page_token=${next}]` : '[end]';
      try {
        if (a.what === 'message') {
          if (!a.id) return toolError('give the message id');
          const item = await getMessage(client, a.id);
          if (!item) return toolError(`no message ${a.id}`);
          // Issue 45: a data card's own message is readable; the rest of its chat is not.
          const own = item.message_id !== undefined && allowed.messages.has(item.message_id);
          return !own && outside([item]) ? refuse(a.id) : toolOk((await render([item]))[0] ?? '');
        }
        if (a.what === 'thread') {
          if (!a.id) return toolError('give the thread id or a message in it');
          let thread = a.id;
          if (a.id.startsWith('om_')) {
            const item = await getMessage(client, a.id);
            if (!item || outside([item])) return refuse(a.id);
            if (!item.thread_id) return toolError(`${a.id} is in no thread; read it with what=message`);
            thread = item.thread_id;
          }
          const page = await listMessages(client, {
            container: 'thread',
            id: thread,
            pageSize: a.page_size ?? 20,
            pageToken: a.page_token,
          });
          if (outside(page.items)) return refuse(thread);
          return toolOk(capBlocks(`Thread ${thread}:`, await render(page.items), more(page.next)));
        }
        const card = a.card ? await ticketCard(scope, a.card) : undefined;
        if (!card) return toolError(`refused: ${a.card ?? '(no card)'} is not a card of this ticket (R-H6)`);
        if (card.origin.source !== 'feishu') return toolError(`${card.id} did not come from Feishu`);
        const minutes = a.minutes ?? 30;
        const at = Math.floor(card.receivedAt / 1000);
        const page = await listMessages(client, {
          container: 'chat',
          id: card.origin.chatId,
          startTime: at - minutes * 60,
          endTime: at + minutes * 60,
          pageSize: a.page_size ?? 20,
          pageToken: a.page_token,
        });
        if (outside(page.items)) return refuse(card.origin.chatId);
        const head = `Chat ${card.origin.chatId}, ${minutes} minutes either side of ${card.id}:`;
        return toolOk(capBlocks(head, await render(page.items), more(page.next)));
      } catch (err) {
        return readFailure(err, `reading Feishu ${a.what}`);
      }
    },
  });
}
