import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TurnOutcome } from '../session/turn-outcome.ts';
import { queueNote } from '../tickets/notes.ts';
import type { TurnScope } from './turn-scope.ts';

const TEXT = (
  await readFile(fileURLToPath(new URL('../../prompts/loop/resumed.md', import.meta.url)), 'utf8')
).trim();

/**
 * Issue 28 "pause means now": a turn a pause stopped after it had begun working leaves a note for
 * the turn after the resume, which takes the same cards again: it goes on from where the
 * transcript stops, reruns a command the pause killed if still needed, and does not acknowledge
 * twice.
 */
export async function notePause(scope: TurnScope, outcome: TurnOutcome): Promise<void> {
  if (outcome.kind !== 'stopped' || outcome.reason !== 'paused' || !outcome.usage.modelRequests) return;
  await queueNote(scope.rt.ctx, scope.ticket.id, 'host:resumed', TEXT);
}
