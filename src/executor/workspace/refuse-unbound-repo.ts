import { replyEffectFor } from '../../cards/reply-effect.ts';
import type { Ctx } from '../../context.ts';
import { languageForCard } from '../../i18n/choose-language.ts';
import { hostText } from '../../i18n/host-text.ts';
import { enqueueEffect } from '../../outbox/enqueue.ts';
import type { UnboundNames } from './repo-choice.ts';

/**
 * Issue 31: one polite sentence to the person whose card named repositories not bound to their
 * chat, saying which the chat works in and who can bind another (a settings admin with `/repo`,
 * the operator in the panel's Setup). Once per card, whichever turn or tool call meets it.
 */
export async function refuseUnboundRepo(ctx: Ctx, ticketId: string, u: UnboundNames): Promise<void> {
  const lang = await languageForCard(ctx, u.card);
  const repos = u.repos.join(', ');
  const text = u.bound.length
    ? hostText(lang, 'chat-repo.unbound', { repos, bound: u.bound.join(', '), example: u.repos[0] ?? '' })
    : hostText(lang, 'chat-repo.unbound-none', { repos, example: u.repos[0] ?? '' });
  const effect = replyEffectFor(u.card, text);
  if (effect) await enqueueEffect(ctx, { key: `repo-unbound:${u.card.id}`, effect, ticketId });
}
