import type { TriggerCard } from '../cards/card.ts';
import { loadCard } from '../cards/ingest.ts';
import type { Ctx } from '../context.ts';
import { scheduleTurn } from '../executor/schedule-turn.ts';
import { hasWaitingCards } from '../executor/turn-inputs.ts';
import { withAuthorPermission } from '../safety/author-permission.ts';
import { wakesExecutor } from '../safety/wakes-executor.ts';
import { withParentContext } from '../sources/parent-context.ts';
import { noteAnswerButton } from '../status/answer-button.ts';
import { attachCard } from '../tickets/attach.ts';
import { isPaused } from '../tickets/pause.ts';
import { getTicket } from '../tickets/ticket-store.ts';
import { applyCommand } from './apply-command.ts';
import { addCandidate } from './candidates.ts';
import { commandOf } from './command.ts';
import { noteFollowUp } from './follow-up-notices.ts';
import { applyLanguageCommand, languageCommandOf } from './language-command.ts';
import { mayNameTicket } from './may-name-ticket.ts';
import { maySteer } from './may-steer.ts';
import { openedEarlier, openForced } from './open-forced.ts';
import { politeRefusal } from './polite-refusal.ts';
import { applyRepoCommand, repoCommandOf } from './repo-command.ts';
import { resolveTickets } from './resolve-tickets.ts';
import { noteRouteFate } from './route-fate.ts';
import { loadRouteOutcome, REFUSALS, type RouteOutcome, saveRouteOutcome } from './route-outcome.ts';
import { type Standing, standingOn } from './ticket-standing.ts';

export type { RouteOutcome } from './route-outcome.ts';

/**
 * Places one card (ARCHITECTURE "router", step 1): commands first, then explicit references,
 * then an explicit request no ticket could be meant for is opened by code (issue 18), then the
 * main session for the rest. Runs as the card's routing job; the outcome is recorded
 * once, so a retried job does not place a card twice.
 */
export async function routeCard(ctx: Ctx, cardId: string): Promise<RouteOutcome> {
  const done = await loadRouteOutcome(ctx, cardId);
  if (done) return done;
  const loaded = await loadCard(ctx, cardId);
  const card = loaded && (await withParentContext(ctx, await withAuthorPermission(ctx, loaded)));
  const why: string[] = [];
  const outcome: RouteOutcome = card
    ? await place(ctx, card, why)
    : { kind: 'ignored', reason: 'card expired' };
  // Issue 33 item 2: the inbox entry first, then the outcome that ends the job. A crash between
  // the two runs the job again, which places the card again and writes the entry again; a saved
  // outcome always has its entry.
  if (card) await noteRouteFate(ctx, card, outcome, why);
  await saveRouteOutcome(ctx, cardId, outcome);
  ctx.log.debug({ cardId, outcome }, 'card routed');
  return outcome;
}

/** `why` collects, for an attached card, the explicit reference that attached it to each ticket. */
async function place(ctx: Ctx, card: TriggerCard, why: string[]): Promise<RouteOutcome> {
  if (card.author.type === 'self') return { kind: 'ignored', reason: 'our own event (R-A2)' };
  // Issue 18: this job retried after its card opened a ticket; the ticket now holds its thread.
  const earlier = card.request ? await openedEarlier(ctx, card) : undefined;
  if (earlier) return earlier;
  if (card.kind === 'card_action' && !maySteer(card, ctx.config))
    return { kind: 'ignored', reason: REFUSALS.pressNotAllowed };
  const language = languageCommandOf(card);
  if (language && maySteer(card, ctx.config)) {
    await applyLanguageCommand(ctx, card, language);
    return { kind: 'command', command: 'language', tickets: [] };
  }
  const repoCommand = repoCommandOf(card);
  if (repoCommand) return { kind: 'chat_repo', result: await applyRepoCommand(ctx, card, repoCommand) };
  const matches = await resolveTickets(ctx, card);
  const standings = await standingsOf(ctx, card, [...matches.keys()]);
  // R-H5: pause, resume and answers reach only the tickets this card may steer.
  const steered = [...standings].filter(([, s]) => s.steers).map(([id]) => id);
  const command = commandOf(card);
  if (command && maySteer(card, ctx.config) && (steered.length || !matches.size)) {
    await applyCommand(ctx, card, command, steered);
    return { kind: 'command', command, tickets: steered };
  }
  await noteAnswerButton(ctx, card, steered);
  if (standings.size) {
    for (const [ticketId, standing] of standings) {
      const reference = `explicit reference ${matches.get(ticketId)}`;
      why.push(`${ticketId}: ${reference}${standing.dataLabel ? ' (as data: it may not steer there)' : ''}`);
      const added = await attachCard(ctx, ticketId, card, reference, { dataLabel: standing.dataLabel });
      // R-D2: a paused ticket keeps the card but starts nothing.
      // R-A5, R-H5: a person who may not steer this ticket is kept as data and wakes nothing.
      // A retried routing finds the card attached already: it still wakes the ticket while the
      // card waits in its inbox (the attempt before may have failed before the turn was queued).
      const waiting = added || (await hasWaitingCards(ctx, ticketId));
      if (waiting && !(await isPaused(ctx, ticketId)) && wakesExecutor(card, standing))
        await scheduleTurn(ctx, ticketId, batchDelayMs(card));
    }
    if (card.author.type === 'person') await noteFollowUp(ctx, card.id, [...standings.keys()], steered);
    return { kind: 'attached', tickets: [...standings.keys()] };
  }
  if (card.author.type === 'bot' || card.kind === 'check') {
    return { kind: 'ignored', reason: 'automatic feedback about no ticket' };
  }
  if (!maySteer(card, ctx.config)) {
    if (card.request) await politeRefusal(ctx, card);
    return { kind: 'ignored', reason: REFUSALS.mayNotStart };
  }
  // Issue 18: an explicit request no ticket could be meant for: the decision is forced.
  const opened = card.request && !mayNameTicket(card) ? await openForced(ctx, card) : undefined;
  if (opened) return opened;
  await addCandidate(ctx, card.id);
  return { kind: 'candidate' };
}

/** The card's standing on each ticket it points at that still exists (R-H5), in match order. */
async function standingsOf(ctx: Ctx, card: TriggerCard, ticketIds: string[]): Promise<Map<string, Standing>> {
  const out = new Map<string, Standing>();
  for (const id of ticketIds) {
    const ticket = await getTicket(ctx, id);
    if (ticket) out.set(id, standingOn(card, ticket, ctx.config));
  }
  return out;
}

/**
 * R-C7: review comments arrive as one webhook each, a few hundred milliseconds apart; waiting a
 * moment before the turn lets a review's comments reach the executor as one batch (one turn).
 */
export const REVIEW_BATCH_MS = 1500;
const batchDelayMs = (card: TriggerCard): number =>
  card.kind === 'review_comment' || card.kind === 'review' ? REVIEW_BATCH_MS : 0;
