import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { languageForCard } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';

/** R-A5: one polite sentence to someone who may not start work; their text stays data. */
export async function politeRefusal(ctx: Ctx, card: TriggerCard): Promise<void> {
  const lang = await languageForCard(ctx, card);
  const effect = replyEffectFor(card, hostText(lang, 'refusal.not-allowed'));
  if (effect) await enqueueEffect(ctx, { key: `refuse:${card.id}`, effect, exemptFromPause: true });
}
