import { type ChatMessage, callKey, pendingToolCalls, type ToolCall } from './chat-message.ts';
import { toolResultText } from './dispatch-tool-call.ts';
import { takeEarly } from './early-tool-calls.ts';
import { runCall } from './run-call.ts';
import type { ToolResult } from './tool.ts';
import { wallTimeLimit } from './turn-limits.ts';
import { proceed } from './turn-outcome.ts';
import { goOn, type StepResult, type TurnRun } from './turn-run.ts';
import { outcome } from './usage-of.ts';

/**
 * Answers the last model message's outstanding tool calls, one step each, in order. A call whose
 * result is already recorded (a resumed turn) is not run again: its recorded result is reused.
 * Before running a call the wall-time budget and the caller's gate are checked (R-D2); a call that
 * ran early, while its answer streamed (issue 18), passed them then and is not run again.
 */
export async function runToolCalls(run: TurnRun): Promise<StepResult> {
  const { assistantIndex, calls } = pendingToolCalls(run.messages);
  for (const call of calls) {
    const key = callKey(assistantIndex, call.id);
    const started = performance.now();
    // Issue 18: a call that ran while the answer streamed has its result already (or soon).
    let result = run.results.get(key) ?? (await takeEarly(run, key));
    if (!result) {
      const tripped = wallTimeLimit(run.turn, run.limits, run.now());
      if (tripped) return outcome(run, { kind: 'limit', ...tripped });
      const verdict = (await run.hooks.beforeToolCall?.(call)) ?? proceed;
      if (!verdict.ok) return outcome(run, { kind: 'stopped', reason: verdict.reason, before: 'tool_call' });
      result = await runCall(run, call, key);
    }
    await record(run, key, call, result, Math.round(performance.now() - started));
  }
  return goOn;
}

async function record(
  run: TurnRun,
  key: string,
  call: ToolCall,
  result: ToolResult,
  ms: number,
): Promise<void> {
  const message: ChatMessage = { role: 'tool', tool_call_id: call.id, content: toolResultText(result) };
  // Issue 17: when the call ran and for how long, beside its result.
  const step = { kind: 'tool', at: run.now(), index: run.messages.length, ms, key } as const;
  await run.store.recordToolResult(run.sessionId, key, result, message, step);
  run.results.set(key, result);
  run.messages.push(message);
}
