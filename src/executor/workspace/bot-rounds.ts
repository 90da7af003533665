import type { TriggerCard } from '../../cards/card.ts';
import type { TurnScope } from '../turn-scope.ts';

/** R-C7: each automated reviewer gets at most three rounds per PR. */
export const BOT_ROUNDS = 3;

/** A review card from another automation on a PR: what counts towards its reviewer's rounds. */
const botReview = (card: TriggerCard) =>
  card.author.type === 'bot' &&
  card.origin.source === 'github' &&
  card.origin.isPullRequest &&
  card.origin.number !== undefined &&
  ['review', 'review_comment', 'issue_comment'].includes(card.kind);

// KEYS: rounds hash, noted set. ARGV: login, turn id, card ids…  Counting and the turn's marker
// in one script: a resumed turn finds its marker and counts nothing twice.
const COUNT = `
local marker = 'turn:' .. ARGV[2] .. ':' .. ARGV[1]
local n
if redis.call('HSETNX', KEYS[1], marker, '1') == 1 then
  n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
else
  n = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
end
if n > ${BOT_ROUNDS} then
  for i = 3, #ARGV do redis.call('SADD', KEYS[2], ARGV[i]) end
end
return n
`;

/**
 * Counts this turn's automated review rounds: the cards one automated reviewer sent on one PR and
 * that reach the executor together are one round. Past the third, that reviewer's cards are noted,
 * not worked (R-C7): they are listed on the ticket (`ticketBotNoted`, for this turn and every later
 * one: the cards stay the ticket's) and the returned lines tell the model so.
 */
export async function noteBotRounds(scope: TurnScope): Promise<string[]> {
  const { ctx } = scope.rt;
  const groups = new Map<string, { repo: string; number: number; login: string; cards: string[] }>();
  for (const card of scope.batch.values()) {
    if (!botReview(card) || card.origin.source !== 'github' || card.origin.number === undefined) continue;
    const key = `${card.origin.repo}#${card.origin.number}@${card.author.id}`;
    const g = groups.get(key) ?? {
      repo: card.origin.repo,
      number: card.origin.number,
      login: card.author.id,
      cards: [],
    };
    g.cards.push(card.id);
    groups.set(key, g);
  }
  const lines: string[] = [];
  for (const g of groups.values()) {
    const keys = [ctx.keys.prBotRounds(g.repo, g.number), ctx.keys.ticketBotNoted(scope.ticket.id)];
    const n = Number(
      await ctx.redis.eval(COUNT, 2, ...keys, g.login.toLowerCase(), scope.turnId, ...g.cards),
    );
    if (n > BOT_ROUNDS)
      lines.push(
        `Noted, not worked: ${g.cards.join(', ')} — round ${n} from automated reviewer ${g.login} on ${g.repo}#${g.number}, past its ${BOT_ROUNDS} rounds (R-C7). Do not change code for it or answer it.`,
      );
  }
  return lines;
}

/** Whether a card is noted, not worked: in the turn that counted its round past the third, or any later one. */
export const isNoted = async (scope: TurnScope, cardId: string): Promise<boolean> =>
  (await scope.rt.ctx.redis.sismember(scope.rt.ctx.keys.ticketBotNoted(scope.ticket.id), cardId)) === 1;
