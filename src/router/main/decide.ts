import type { TriggerCard } from '../../cards/card.ts';
import { scheduleTurn } from '../../executor/schedule-turn.ts';
import { getPolicy } from '../../prompts/index.ts';
import { SKILL_NAME } from '../../prompts/parse-skill.ts';
import type { Runtime } from '../../runtime.ts';
import { statusOpened } from '../../status/status-hooks.ts';
import { attachCard } from '../../tickets/attach.ts';
import { queueNote } from '../../tickets/notes.ts';
import { isPaused } from '../../tickets/pause.ts';
import type { MatchedRule, TicketCrew } from '../../tickets/ticket.ts';
import { createTicket, getTicket, noteTicketSession } from '../../tickets/ticket-store.ts';
import { maySteer } from '../may-steer.ts';
import { referenceHolds } from '../reference-holds.ts';
import { noteDecisionFate } from '../route-fate.ts';
import { standingOn } from '../ticket-standing.ts';
import { countWords, LIMITS } from '../words.ts';
import type { MainBatch } from './batch.ts';
import type { AttachDecision, Decision, OpenDecision } from './decision.ts';

export type { Decision } from './decision.ts';

/** A decision checked against every rule, ready to apply; or why it is refused. */
export type Checked =
  | { ok: true; d: Decision; card: TriggerCard; why: string; inferred?: MatchedRule[] }
  | { ok: false; error: string };

/**
 * Checks one decision (R-B1, R-B2, R-B8, R-A5) without changing anything, so a call with any
 * refused decision can be refused whole and have no effect.
 */
export async function checkDecision(rt: Runtime, batch: MainBatch, d: Decision): Promise<Checked> {
  const card = batch.cards.get(d.card);
  if (!card) return { ok: false, error: `card ${d.card} is not a waiting candidate of this turn` };
  if (batch.decided.has(d.card))
    return { ok: false, error: `card ${d.card} was already decided (${batch.decided.get(d.card)})` };
  if (d.note && countWords(d.note) > LIMITS.routingNote) {
    return {
      ok: false,
      error: `note for ${d.card} has ${countWords(d.note)} words; a routing note is at most 30 (R-B1)`,
    };
  }
  if (d.action === 'open' && d.crew !== undefined && !SKILL_NAME.test(d.crew))
    return { ok: false, error: `crew "${d.crew}" of ${d.card}: only an open names a crew, in kebab-case` };
  if (d.action === 'ignore') return { ok: true, d, card, why: 'ignored by the main session' };
  if (d.action === 'attach') return checkAttach(rt, card, d);
  return checkOpen(rt, card, d);
}

async function checkAttach(rt: Runtime, card: TriggerCard, d: AttachDecision): Promise<Checked> {
  if (!(await getTicket(rt.ctx, d.ticket))) return { ok: false, error: `ticket ${d.ticket} does not exist` };
  const ref = await referenceHolds(rt.ctx, card, d.ticket);
  if (!ref) {
    return {
      ok: false,
      error: `card ${d.card} holds no explicit reference to ${d.ticket} (its PR, issue, source message, acknowledgement or a change of that ticket alone); topic similarity is not enough (R-B2)`,
    };
  }
  return { ok: true, d, card, why: `routing decision: ${ref}` };
}

async function checkOpen(rt: Runtime, card: TriggerCard, d: OpenDecision): Promise<Checked> {
  if (!maySteer(card, rt.ctx.config))
    return { ok: false, error: `the author of ${d.card} may not start work (R-A5)` };
  if (card.request) return { ok: true, d, card, why: 'routing decision: explicit request' };
  // R-B8: without an explicit request, only an enabled rule of an inferred-mode policy opens a ticket.
  const policy = await getPolicy(rt.prompts);
  if (policy.mode !== 'inferred') {
    return {
      ok: false,
      error: `${d.card} is not an explicit request and the accept mode is "explicit": only explicit requests open tickets (R-B8)`,
    };
  }
  const enabled = policy.rules.filter((r) => r.enabled && d.rules?.includes(r.id));
  if (!d.rules?.length || enabled.length !== d.rules.length) {
    return {
      ok: false,
      error: `${d.card} is not an explicit request: name the enabled policy rule(s) it matches in "rules" (R-B8)`,
    };
  }
  const inferred = enabled.map(({ id, name, instruction, crew, profile, openPr, maxRequests }) => ({
    id,
    name,
    instruction,
    ...(crew ? { crew } : {}),
    ...(profile ? { profile } : {}),
    ...(openPr ? { openPr } : {}),
    ...(maxRequests ? { maxRequests } : {}),
  }));
  return {
    ok: true,
    d,
    card,
    why: `routing decision: inferred under ${inferred.map((r) => r.id).join(', ')}`,
    inferred,
  };
}

/** Applies a checked decision; returns a line for the model. */
export async function applyDecision(
  rt: Runtime,
  batch: MainBatch,
  c: Extract<Checked, { ok: true }>,
  sessionId: string,
): Promise<string> {
  const { ctx } = rt;
  batch.decided.set(c.card.id, c.d.action);
  if (c.d.action === 'ignore') {
    await noteDecisionFate(ctx, c.card, { action: 'ignore', ticket: '', why: c.why, note: c.d.note });
    return `${c.card.id}: ignored`;
  }
  let ticketId = c.d.action === 'attach' ? c.d.ticket : '';
  let wakes = true;
  if (c.d.action === 'open') {
    const t = await createTicket(ctx, c.card, {
      why: c.why,
      ...(c.d.title ? { title: c.d.title } : {}),
      ...(c.inferred ? { inferred: { rules: c.inferred } } : {}),
      ...crewOf(c.d, c.inferred),
    });
    ticketId = t.id;
    await statusOpened(ctx, t.id);
  } else {
    // R-H5: a card from outside the ticket's repository or chat is data there: no subscription, no wake.
    const ticket = await getTicket(ctx, ticketId);
    const standing = ticket && standingOn(c.card, ticket, ctx.config);
    await attachCard(ctx, ticketId, c.card, c.why, { dataLabel: standing?.dataLabel });
    wakes = Boolean(standing?.steers);
  }
  await noteDecisionFate(ctx, c.card, { action: c.d.action, ticket: ticketId, why: c.why, note: c.d.note });
  // Issue 17: this main turn shows in the ticket's trajectory.
  await noteTicketSession(ctx, ticketId, sessionId);
  if (c.d.note) await queueNote(ctx, ticketId, 'main', c.d.note);
  if (wakes && !(await isPaused(ctx, ticketId))) await scheduleTurn(ctx, ticketId);
  return `${c.card.id}: ${c.d.action === 'open' ? 'opened' : 'attached to'} ${ticketId}`;
}

/**
 * The ticket's crew (issue 7): the decision's, else the first matched rule's that names one. An
 * inferred ticket runs its rule's crew (else the default) whatever the decision names (F-12): no
 * one asked for it, so routing does not choose it a wider one.
 */
function crewOf(d: OpenDecision, inferred: MatchedRule[] | undefined): { crew?: TicketCrew } {
  if (d.crew && !inferred) return { crew: { name: d.crew, from: 'routing' } };
  const rule = inferred?.find((r) => r.crew);
  return rule?.crew ? { crew: { name: rule.crew, from: 'policy' } } : {};
}
