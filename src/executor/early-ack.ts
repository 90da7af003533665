import type { ToolCall } from '../session/chat-message.ts';
import type { TurnState } from '../session/turn-state.ts';
import { pendingRequests, type TurnScope } from './turn-scope.ts';

/**
 * Issue 18: the executor's acknowledgement (`reply` with purpose `ack`, or none) runs as soon as
 * it is complete in the streamed answer, so the person hears back one model round trip after
 * asking. It is safe to run early: the card's one acknowledgement is claimed by the call's key
 * (R-C2) and its message queued under that key, so a repeat sends nothing twice. A reply without
 * purpose that turns out a result (its card acknowledged in an earlier answer, issue 28) is as
 * safe: only the answer's leading calls run early, so nothing it could report on comes before it,
 * and it is queued under its key too. Other replies wait for the whole answer, like every other call.
 */
export function isEarlyAck(call: ToolCall): boolean {
  if (call.function.name !== 'reply') return false;
  try {
    const args = JSON.parse(call.function.arguments) as { purpose?: unknown };
    return args.purpose === undefined || args.purpose === 'ack';
  } catch {
    return false;
  }
}

/**
 * Issue 28: the request that acknowledges new cards — a turn's first, while a request of its
 * batch is neither acknowledged nor handed back — is answered without thinking, so with DeepSeek's
 * thinking mode the person hears back one plain round trip after asking, not after a reasoning
 * phase; every later request of the turn thinks as `EXECUTOR_THINKING` says. A turn resumed after
 * its acknowledgement went out, or one with nothing to acknowledge, thinks from the start.
 */
export async function acknowledgesWithoutThinking(
  scope: TurnScope,
  turn: Readonly<TurnState>,
): Promise<boolean> {
  if (turn.modelRequests > 0) return false;
  return (await pendingRequests(scope)).length > 0;
}
