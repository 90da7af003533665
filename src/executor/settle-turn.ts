import { loadCard } from '../cards/ingest.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import { languageForTicket } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { noteReportForMain } from '../router/follow-up-notices.ts';
import { alertOnce } from '../safety/alert-webhook.ts';
import type { TurnOutcome } from '../session/turn-outcome.ts';
import { recordTaken, wasHandedBack, wasTakenBy } from '../tickets/handback.ts';
import { dropTurnNotes } from '../tickets/notes.ts';
import { addReport } from '../tickets/reports.ts';
import { isClosedState } from '../tickets/retention.ts';
import { getTicket, setTicketState } from '../tickets/ticket-store.ts';
import { continueAfterCap } from './continue-after-cap.ts';
import { notePause } from './paused-turn.ts';
import { retryAfterOutage } from './retry-after-outage.ts';
import { handBack } from './tools/handback-tools.ts';
import { clearTurnActed, turnActed } from './turn-acts.ts';
import { dropBatch, returnBatch } from './turn-inputs.ts';
import type { TurnScope } from './turn-scope.ts';
import { releaseCheckout } from './workspace/release-checkout.ts';

/**
 * What follows a turn's end. Paused: its cards go back to the inbox for the turn after the
 * resume. Ended: people's cards it neither took nor handed back are handed back (R-C3: "processing
 * ends without anyone taking it"). A budget or model failure: the ticket waits and the requester
 * is asked, naming the limit (issue 4: budgets) — unless a fresh turn goes on (issue 28: out of
 * requests while working, or the model unreachable for a while).
 */
export async function settleTurn(scope: TurnScope, outcome: TurnOutcome): Promise<void> {
  const { ctx } = scope.rt;
  const { ticket, turnId } = scope;
  if (outcome.kind === 'stopped') {
    await returnBatch(ctx, ticket.id, turnId);
    await notePause(scope, outcome);
    await clearTurnActed(ctx, turnId);
    await releaseIfClosed(scope);
    return;
  }
  if (outcome.kind === 'ended') {
    // Stored by the turn's tools, on whichever worker ran them (a resumed turn did not rerun them).
    const acted = await turnActed(ctx, turnId);
    for (const card of scope.batch.values()) {
      if (card.author.type !== 'person' || card.id === ticket.openedBy) continue;
      if (await wasTakenBy(ctx, card.id, ticket.id)) continue;
      if (await wasHandedBack(ctx, card.id, ticket.id)) continue;
      // Issue 15 "hand-back after silent handling": a follow-up in the ticket's thread that the
      // turn acted on (it changed the work) without replying is taken, not a new candidate.
      if (acted && !card.request) {
        await recordTaken(ctx, card.id, ticket.id);
        continue;
      }
      await handBack(scope, card.id, 'the turn ended without taking it');
    }
  } else if (await continueAfterCap(scope, outcome)) {
    // Issue 28: out of requests while working: a fresh turn goes on, nobody is asked yet.
  } else if (await retryAfterOutage(scope, outcome)) {
    // Issue 28: the model could not be reached: the turn runs again later, nobody is asked yet.
  } else {
    const why =
      outcome.kind === 'limit'
        ? `the ${outcome.limit} budget ran out (${outcome.detail})`
        : `the model failed: ${outcome.reason}`;
    await setTicketState(ctx, ticket.id, 'waiting');
    await addReport(ctx, ticket.id, { status: 'blocked', summary: why, at: ctx.now() });
    await alertOnce(ctx, {
      kind: 'blocked',
      cause: `${ticket.id}:${ctx.now()}`,
      ticketId: ticket.id,
      text: `${ticket.id} is blocked: ${why}`,
    });
    const origin = await loadCard(ctx, ticket.openedBy);
    const lang = await languageForTicket(ctx, ticket);
    const text =
      outcome.kind === 'limit'
        ? hostText(lang, 'stopped.budget', {
            ticket: ticket.id,
            limit: outcome.limit,
            detail: outcome.detail,
          })
        : hostText(lang, 'stopped.model', { ticket: ticket.id, reason: outcome.reason });
    const effect = origin && replyEffectFor(origin, text);
    if (effect) await enqueueEffect(ctx, { key: `blocked:${turnId}`, effect, ticketId: ticket.id });
    // Issue 30 ("不等待"): the host's report reaches the main session by itself, like an executor's.
    const host = outcome.kind === 'limit' ? 'budget' : 'model';
    await noteReportForMain(ctx, ticket.id, {
      status: 'blocked',
      summary: why,
      asked: Boolean(effect),
      host,
    });
  }
  await dropBatch(ctx, turnId);
  await dropTurnNotes(ctx, turnId);
  await clearTurnActed(ctx, turnId);
  await releaseIfClosed(scope);
}

/** A turn that left its ticket done or cancelled deletes the checkout (issue 14 "lifecycle"). */
async function releaseIfClosed(scope: TurnScope): Promise<void> {
  const { ctx } = scope.rt;
  const ticket = await getTicket(ctx, scope.ticket.id);
  if (ticket && isClosedState(ticket.state)) await releaseCheckout(ctx, scope.ticket.id);
}
