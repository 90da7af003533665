import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';

/** R-A5: one polite sentence to someone who may not start work; their text stays data. */
export async function politeRefusal(ctx: Ctx, card: TriggerCard): Promise<void> {
  const effect = replyEffectFor(
    card,
    'Sorry, I can only take requests from people this team has allowed to steer me.',
  );
  if (effect) await enqueueEffect(ctx, { key: `refuse:${card.id}`, effect, exemptFromPause: true });
}
