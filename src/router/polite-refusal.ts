import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { languageForCard } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { takeRefusal } from './refusal-budget.ts';

/**
 * R-A5: one polite sentence to someone who may not start work; their text stays data. Issue 45:
 * at most one per outsider per place a day, within the place's budget, and queued behind every
 * ticket's own messages (`background`).
 */
export async function politeRefusal(ctx: Ctx, card: TriggerCard): Promise<void> {
  const lang = await languageForCard(ctx, card);
  const effect = replyEffectFor(card, hostText(lang, 'refusal.not-allowed'));
  if (!effect || !(await takeRefusal(ctx, card))) return;
  await enqueueEffect(ctx, { key: `refuse:${card.id}`, effect, exemptFromPause: true, background: true });
}
