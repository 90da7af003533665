import { z } from 'zod';
import { addCandidate } from '../../router/candidates.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { isAcked } from '../../tickets/acks.ts';
import { recordHandback } from '../../tickets/handback.ts';
import { threadKeys } from '../../tickets/ref-key.ts';
import { declareUnrelated } from '../../tickets/unrelated.ts';
import type { TurnScope } from '../turn-scope.ts';

/** Hands a card back (R-C3); when every owner has, it becomes a candidate with their reasons. */
export async function handBack(scope: TurnScope, cardId: string, reason: string): Promise<string> {
  const { ctx } = scope.rt;
  const verdict = await recordHandback(ctx, cardId, scope.ticket.id, reason);
  if (verdict === 'candidate') await addCandidate(ctx, cardId);
  return verdict;
}

/** `handback({ card, reason })`: this message is outside the ticket or belongs to another (R-C3). */
export function handbackTool(scope: TurnScope) {
  return defineTool({
    name: 'handback',
    description:
      'Hand a card back: it is outside this ticket or belongs to another. Give the reason in one sentence.',
    parameters: z.object({ card: z.string(), reason: z.string().min(1).max(400) }),
    async run({ card, reason }) {
      if (!scope.batch.has(card)) return toolError(`card ${card} is not one of this turn's cards`);
      if (await isAcked(scope.rt.ctx, scope.ticket.id, card))
        return toolError(`card ${card} was acknowledged by this ticket; it is yours now`);
      await handBack(scope, card, reason);
      return toolOk(`handed back ${card}`);
    },
  });
}

/**
 * `orchestrator_thread_unrelated({ card, reason? })` (R-C4): the card's thread is not this
 * ticket's business. The ticket stops following it, no longer answers there, and hands the card back.
 */
export function threadUnrelatedTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'orchestrator_thread_unrelated',
    description:
      'Declare a subscribed thread unrelated to this ticket: you stop following it and will not answer there.',
    parameters: z.object({ card: z.string(), reason: z.string().optional() }),
    async run({ card: id, reason }) {
      const card = scope.batch.get(id);
      if (!card) return toolError(`card ${id} is not one of this turn's cards`);
      await declareUnrelated(ctx, scope.ticket.id, threadKeys(card));
      await handBack(scope, id, reason ?? 'thread unrelated to this ticket');
      return toolOk(`no longer following ${id}'s thread`);
    },
  });
}
