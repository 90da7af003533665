import { callKey } from './chat-message.ts';
import type { TurnCall, TurnRun } from './turn-run.ts';

/** Host notes are user messages of the host's own (`host-note.ts`); a turn's input never starts so. */
const HOST_NOTE = '[host]';

/** Where this turn's input sits: recorded on the turn state, or (a turn opened before issue 28) found. */
function inputIndex(run: Pick<TurnRun, 'messages' | 'turn'>): number {
  if (run.turn.inputIndex !== undefined) return run.turn.inputIndex;
  for (let i = run.messages.length - 1; i >= 0; i--) {
    const m = run.messages[i];
    if (m?.role === 'user' && !m.content.startsWith(HOST_NOTE)) return i;
  }
  return 0;
}

/** The tool calls this turn made so far, in order, with whether each succeeded (issue 28). */
export function turnCalls(run: Pick<TurnRun, 'messages' | 'turn' | 'results'>): TurnCall[] {
  const out: TurnCall[] = [];
  for (let i = inputIndex(run); i < run.messages.length; i++) {
    const m = run.messages[i];
    if (m?.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      const result = run.results.get(callKey(i, c.id));
      out.push({ name: c.function.name, arguments: c.function.arguments, ok: result?.ok ?? false });
    }
  }
  return out;
}
