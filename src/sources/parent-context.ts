import type { TriggerCard } from '../cards/card.ts';
import { parentLine } from '../cards/card-context.ts';
import { replaceCard } from '../cards/card-store.ts';
import type { Ctx } from '../context.ts';
import { feishuClient, feishuMessage, getMessage } from './feishu-reads.ts';
import { authorLine } from './source-text.ts';

/**
 * R-H6 "cards carry their context": a Feishu reply's card names the message it replies to — its
 * author, standing and first line — looked up once in the routing job (never at the HTTP edge)
 * and written onto the stored card, so the main session and the executor both see it. Only a
 * parent in the same chat counts; a failed look-up leaves the card as it was (the executor can
 * still `read_chat` it).
 */
export async function withParentContext(ctx: Ctx, card: TriggerCard): Promise<TriggerCard> {
  const o = card.origin;
  if (o.source !== 'feishu' || !card.replyTo || card.context?.parent) return card;
  const client = feishuClient(ctx);
  if (!client) return card;
  try {
    const item = await getMessage(client, card.replyTo);
    if (!item || item.chat_id !== o.chatId) return card;
    const m = await feishuMessage(ctx, item);
    const parent = parentLine(card.replyTo, authorLine(m.author), m.title ? `${m.title}\n${m.text}` : m.text);
    const enriched: TriggerCard = { ...card, context: { ...card.context, parent } };
    await replaceCard(ctx, enriched);
    return enriched;
  } catch (err) {
    ctx.log.debug({ err, cardId: card.id }, 'parent message look-up failed');
    return card;
  }
}
