import type { TriggerCard } from '../cards/card.ts';
import { replaceCard } from '../cards/card-store.ts';
import type { Ctx } from '../context.ts';
import { markStatusDirty } from './schedule-status.ts';
import { answerQuestion, readQuestionFacts } from './status-facts.ts';
import type { StatusAnswer } from './status-model.ts';

type ButtonCtx = Pick<Ctx, 'redis' | 'keys' | 'queues' | 'now' | 'log'>;

const ANSWER = /^button:answer:(\d+)$/;

/**
 * An answer button of a status card (`button:answer:<n>`) pressed by a person allowed to steer:
 * the first press answers the ticket's open question (HSETNX, so two presses can't both win), and
 * the card's text and facts name the chosen answer, so the executor reads the choice itself
 * rather than a button number (R-C5). The card then attaches like any reply to the ticket.
 */
export async function noteAnswerButton(
  ctx: ButtonCtx,
  card: TriggerCard,
  ticketIds: string[],
): Promise<void> {
  const n = Number(ANSWER.exec(card.action ?? '')?.[1]);
  if (card.kind !== 'card_action' || !n) return;
  for (const ticketId of ticketIds) {
    const { question: q } = await readQuestionFacts(ctx, ticketId);
    const choice = q?.choices[n - 1];
    if (!q || choice === undefined) continue;
    const by = card.author.name ?? card.author.id;
    const answer: StatusAnswer = { choice: n, text: choice, by, at: ctx.now(), askedAt: q.at };
    const first = await answerQuestion(ctx, ticketId, answer);
    const answered: TriggerCard = {
      ...card,
      text: `${by} pressed answer ${n} to the question "${q.question}": ${choice}${first ? '' : ' (the question was already answered)'}`,
      facts: { ...card.facts, ticket: ticketId, question: q.question, choice: n, answer: choice },
    };
    await replaceCard(ctx, answered);
    await markStatusDirty(ctx, ticketId);
    return;
  }
}
