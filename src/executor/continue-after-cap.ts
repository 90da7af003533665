import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TurnOutcome } from '../session/turn-outcome.ts';
import { queueNote, type TicketNote } from '../tickets/notes.ts';
import { lastReport } from '../tickets/reports.ts';
import { scheduleTurn } from './schedule-turn.ts';
import type { TurnScope } from './turn-scope.ts';

const TEXT = (
  await readFile(fileURLToPath(new URL('../../prompts/loop/continue.md', import.meta.url)), 'utf8')
).trim();

/** Where a continuation note comes from: `host:continue:<n>`, n counting continuations in a row. */
const FROM = 'host:continue:';

/** Fresh turns in a row a ticket gets after running out of requests while working (issue 28). */
export const MAX_CONTINUATIONS = 3;

/** Which continuation in a row a turn is (0: none), from the notes it took. */
export function continuationOf(notes: readonly TicketNote[]): number {
  return notes.reduce(
    (n, note) => (note.from.startsWith(FROM) ? Math.max(n, Number(note.from.slice(FROM.length)) || 0) : n),
    0,
  );
}

/** A host note among a turn's notes: shown as it is, not as a note from the main session. */
export const isHostTicketNote = (note: TicketNote): boolean => note.from.startsWith('host:');

/**
 * Issue 28: a turn that ran out of model requests after reporting `working` in this turn goes on
 * in a fresh turn instead of stopping the ticket and asking its requester — up to
 * `MAX_CONTINUATIONS` in a row, so a model that only ever reports `working` still reaches a person.
 * Returns whether a fresh turn was queued.
 */
export async function continueAfterCap(
  scope: TurnScope & { continuation?: number },
  outcome: TurnOutcome,
): Promise<boolean> {
  if (outcome.kind !== 'limit' || outcome.limit !== 'model_requests') return false;
  // F-12: a ticket nobody asked for reaches a person when its budget is spent, not a fresh turn.
  if (scope.ticket.inferred) return false;
  const n = scope.continuation ?? 0;
  if (n >= MAX_CONTINUATIONS) return false;
  const { ctx } = scope.rt;
  const report = await lastReport(ctx, scope.ticket.id);
  const startedAt = ctx.now() - outcome.usage.elapsedMs;
  if (report?.status !== 'working' || report.by || report.at < startedAt) return false;
  await queueNote(ctx, scope.ticket.id, `${FROM}${n + 1}`, TEXT);
  await scheduleTurn(ctx, scope.ticket.id);
  ctx.log.info(
    { ticketId: scope.ticket.id, continuation: n + 1 },
    'request budget spent while working: a fresh turn goes on',
  );
  return true;
}
