import { type ChatMessage, callKey, pendingToolCalls } from './chat-message.ts';
import { toolResultText } from './dispatch-tool-call.ts';
import { toolError } from './tool.ts';
import type { Transcript, TranscriptStore } from './transcript-store.ts';
import type { TurnOutcome } from './turn-outcome.ts';
import { newTurnState, type TurnState } from './turn-state.ts';

/** A turn to run (`resumed` from its transcript, or new), or one that already finished with `outcome`. */
export type Opened =
  | { kind: 'running'; resumed: boolean; turn: TurnState }
  | { kind: 'finished'; outcome: TurnOutcome };

const interrupted = toolError(
  'not run: the turn that asked for this call stopped before it; call it again if it is still needed',
);

/**
 * Resumes the turn `turnId` from the transcript (a crashed or stopped one), or opens a new one. A
 * finished turn with the same id answers its recorded outcome (a job retried after it finished
 * starts nothing). A new turn first answers calls an earlier, stopped turn left open, with an
 * error result and no effect, so nothing an old turn asked for happens under a new one; then it
 * appends its input as one step.
 */
export async function openTurn(
  store: TranscriptStore,
  t: Transcript,
  sessionId: string,
  turnId: string,
  input: readonly ChatMessage[],
  now: number,
): Promise<Opened> {
  if (t.turn?.id === turnId) {
    const previous = t.turn.outcome;
    if (previous && previous.kind !== 'stopped') return { kind: 'finished', outcome: previous };
    const { outcome: stopped, ...rest } = t.turn;
    // Time spent stopped (a pause) is not working time: the wall-time budget counts from where it left off.
    const startedAt = stopped ? now - stopped.usage.elapsedMs : rest.startedAt;
    return { kind: 'running', resumed: true, turn: { ...rest, startedAt, status: 'running' } };
  }
  const { assistantIndex, calls } = pendingToolCalls(t.messages);
  for (const call of calls) {
    const message: ChatMessage = {
      role: 'tool',
      tool_call_id: call.id,
      content: toolResultText(interrupted),
    };
    await store.recordToolResult(sessionId, callKey(assistantIndex, call.id), interrupted, message);
    t.messages.push(message);
  }
  const turn: TurnState = { ...newTurnState(turnId, now), inputIndex: t.messages.length };
  await store.appendStep(sessionId, input, turn, {
    step: { kind: 'turn', at: now, index: t.messages.length, turnId },
  });
  t.messages.push(...input);
  return { kind: 'running', resumed: false, turn };
}
