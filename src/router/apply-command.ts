import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { scheduleTurn } from '../executor/schedule-turn.ts';
import { hasWaitingCards } from '../executor/turn-inputs.ts';
import { languageForCard, languageForTicket } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import { type Lang, LIST_SEPARATOR } from '../i18n/lang.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { releaseHeld } from '../outbox/release-held.ts';
import { statusChanged } from '../status/status-hooks.ts';
import { recordOnTicket } from '../tickets/attach.ts';
import { hasWaitingNotes } from '../tickets/notes.ts';
import { isPaused, type Lift, pauseTicket, resumeTicket } from '../tickets/pause.ts';
import { getTicket } from '../tickets/ticket-store.ts';
import type { Command } from './command.ts';

/**
 * Applies a person's pause or resume (R-D2) to the tickets the card points at, records the card
 * on each, and confirms with one short reply (sent even though the ticket is paused).
 */
export async function applyCommand(
  ctx: Ctx,
  card: TriggerCard,
  command: Command,
  ticketIds: string[],
): Promise<void> {
  const changed: string[] = [];
  for (const id of ticketIds) {
    const ok =
      command === 'pause'
        ? await pauseTicketBy(ctx, id, card)
        : await resumeTicketAndWake(ctx, id, {
            by: card.author.name ?? card.author.id,
            at: ctx.now(),
            via: card.kind === 'card_action' ? 'button' : 'message',
          });
    if (ok) changed.push(id);
    if (ok) await statusChanged(ctx, id);
    await recordOnTicket(ctx, id, { cardId: card.id, why: `${command} command`, at: ctx.now() });
  }
  const lang = await languageForCard(ctx, card, () => ticketLanguage(ctx, ticketIds[0]));
  const effect = replyEffectFor(card, confirmation(lang, command, ticketIds, changed));
  if (effect) await enqueueEffect(ctx, { key: `command:${card.id}`, effect, exemptFromPause: true });
}

function pauseTicketBy(ctx: Ctx, ticketId: string, card: TriggerCard): Promise<boolean> {
  return pauseTicket(ctx, ticketId, {
    by: card.author.name ?? card.author.id,
    at: ctx.now(),
    cardId: card.id,
    via: card.kind === 'card_action' ? 'button' : 'message',
  });
}

/**
 * Resumes, sends what the pause held (R-D2), and, when cards or notes waited meanwhile,
 * starts the turn they need. The release runs even when the ticket was not paused: a resume
 * retried after a crash still sends what its first run did not get to. With `only`, lifts only a
 * pause made that way (`resumeTicket`).
 */
export async function resumeTicketAndWake(
  ctx: Ctx,
  ticketId: string,
  lift?: Lift,
  only?: Lift['via'],
): Promise<boolean> {
  const ok = await resumeTicket(ctx, ticketId, lift, only);
  if (!(await isPaused(ctx, ticketId))) await releaseHeld(ctx, ticketId);
  // Issue 28: a paused turn without cards of its own (a continuation) left only its note.
  const waiting = (await hasWaitingCards(ctx, ticketId)) || (await hasWaitingNotes(ctx, ticketId));
  if (ok && waiting) await scheduleTurn(ctx, ticketId);
  return ok;
}

/** A button press answers in the language of the ticket it belongs to. */
async function ticketLanguage(ctx: Ctx, ticketId: string | undefined): Promise<Lang> {
  const ticket = ticketId ? await getTicket(ctx, ticketId) : undefined;
  return ticket ? languageForTicket(ctx, ticket) : 'en';
}

/** The one-sentence confirmation, in the language of the conversation (issue 16). */
function confirmation(lang: Lang, command: Command, all: string[], changed: string[]): string {
  const list = (ids: string[]) => ({ tickets: ids.join(LIST_SEPARATOR[lang]) });
  if (!all.length)
    return hostText(lang, command === 'pause' ? 'command.nothing-to-pause' : 'command.nothing-to-resume');
  if (command === 'pause')
    return changed.length
      ? hostText(lang, 'command.paused', list(changed))
      : hostText(lang, 'command.already-paused', list(all));
  return changed.length
    ? hostText(lang, 'command.resumed', list(changed))
    : hostText(lang, 'command.not-paused', list(all));
}
