import { inSpan } from '../tracing/in-span.ts';
import type { ToolCall } from './chat-message.ts';
import { dispatchToolCall } from './dispatch-tool-call.ts';
import { toolSpan } from './step-spans.ts';
import type { ToolResult } from './tool.ts';
import type { TurnRun } from './turn-run.ts';

/**
 * Runs one tool call of the turn under its idempotency key (`<session>:<call key>`), the same
 * whether it runs after the answer was stored, again in a resumed turn, or early while the answer
 * still streams (issue 18): a repeated run repeats no side effect.
 */
export function runCall(run: TurnRun, call: ToolCall, key: string): Promise<ToolResult> {
  const span = toolSpan(run.tools, call.function.name, run.sessionId);
  return inSpan(span.name, span.attributes, async (s) => {
    const result = await dispatchCall(run, call, key);
    s.setAttribute('switchyard.tool.outcome', result.ok ? 'ok' : 'refused');
    return result;
  });
}

async function dispatchCall(run: TurnRun, call: ToolCall, key: string): Promise<ToolResult> {
  const result = await dispatchToolCall(run.tools, call, {
    sessionId: run.sessionId,
    toolCallId: call.id,
    idempotencyKey: `${run.sessionId}:${key}`,
  });
  if (!result.ok) {
    run.log?.info(
      { sessionId: run.sessionId, tool: call.function.name, error: result.error },
      'tool call refused',
    );
  }
  return result;
}
