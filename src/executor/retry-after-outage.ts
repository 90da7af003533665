import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TurnOutcome } from '../session/turn-outcome.ts';
import { queueNote, type TicketNote } from '../tickets/notes.ts';
import { scheduleTurn } from './schedule-turn.ts';
import { returnBatch } from './turn-inputs.ts';
import type { TurnScope } from './turn-scope.ts';

const TEXT = (
  await readFile(fileURLToPath(new URL('../../prompts/loop/outage.md', import.meta.url)), 'utf8')
).trim();

/** Where a retry note comes from: `host:outage:<n>`, n counting the retries in a row. */
const FROM = 'host:outage:';

/** Which retry after a model outage a turn is (0: none), from the notes it took. */
export function outageRetryOf(notes: readonly TicketNote[]): number {
  return notes.reduce(
    (n, note) => (note.from.startsWith(FROM) ? Math.max(n, Number(note.from.slice(FROM.length)) || 0) : n),
    0,
  );
}

/**
 * Issue 28 "model outages": a turn that failed because the model could not be reached (every
 * attempt of a request failed transiently, about a minute of back-off) runs again
 * `LLM_OUTAGE_TURN_DELAY_MS` later, its cards handed to the retried turn with a note, up to
 * `LLM_OUTAGE_TURN_RETRIES` times in a row; only then is a person asked. A model that refuses the
 * request (a 400, a 401) is no outage: it is asked about at once. Returns whether a retry was queued.
 */
export async function retryAfterOutage(
  scope: TurnScope & { outageRetry?: number },
  outcome: TurnOutcome,
): Promise<boolean> {
  if (outcome.kind !== 'failed' || !outcome.transient) return false;
  const { ctx } = scope.rt;
  const retries = ctx.config.LLM_OUTAGE_TURN_RETRIES;
  const n = (scope.outageRetry ?? 0) + 1;
  if (n > retries) return false;
  await returnBatch(ctx, scope.ticket.id, scope.turnId);
  const text = TEXT.replace('{retry}', String(n)).replace('{retries}', String(retries));
  await queueNote(ctx, scope.ticket.id, `${FROM}${n}`, text);
  // Already queued (a card came meanwhile): that turn takes the cards and the note.
  await scheduleTurn(ctx, scope.ticket.id, ctx.config.LLM_OUTAGE_TURN_DELAY_MS);
  ctx.log.warn(
    { ticketId: scope.ticket.id, retry: n, reason: outcome.reason },
    'the model could not be reached: the turn runs again later',
  );
  return true;
}
