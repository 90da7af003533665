import { type ChatMessage, callKey, pendingToolCalls, type ToolCall } from './chat-message.ts';
import { toolResultText } from './dispatch-tool-call.ts';
import { takeEarly } from './early-tool-calls.ts';
import { budgetLine } from './host-note.ts';
import { runCall } from './run-call.ts';
import type { ToolResult } from './tool.ts';
import { wallTimeLimit } from './turn-limits.ts';
import { proceed } from './turn-outcome.ts';
import { goOn, type StepResult, type TurnRun } from './turn-run.ts';
import { outcome } from './usage-of.ts';

/** A call under way: its result and how long it took, from when it started (or was taken). */
type Started = { call: ToolCall; key: string; done: Promise<{ result: ToolResult; ms: number }> };

const timed = (at: number, result: Promise<ToolResult>) =>
  result.then((r) => ({ result: r, ms: Math.round(performance.now() - at) }));

/**
 * Answers the last model message's outstanding tool calls, one step each, in order. A call whose
 * result is already recorded (a resumed turn) is not run again: its recorded result is reused.
 * Before running a call the wall-time budget and the caller's gate are checked (R-D2); a call that
 * ran early, while its answer streamed (issue 18), passed them then and is not run again. Calls
 * the caller marks as reads (`runTogether`, issue 28) run at the same time when the model sent
 * several in a row; their results are still recorded one step each, in the answer's order.
 */
export async function runToolCalls(run: TurnRun): Promise<StepResult> {
  const { assistantIndex, calls } = pendingToolCalls(run.messages);
  let i = 0;
  while (i < calls.length) {
    const group = [calls[i] as ToolCall];
    while (run.runTogether && i + group.length < calls.length) {
      const next = calls[i + group.length] as ToolCall;
      if (!run.runTogether(group[0] as ToolCall) || !run.runTogether(next)) break;
      group.push(next);
    }
    i += group.length;
    const started: Started[] = [];
    let stop: StepResult | undefined;
    for (const call of group) {
      stop = await start(run, assistantIndex, call, started);
      if (stop) break;
    }
    // Calls already started are awaited (all at once: a failure of one is never left unhandled
    // while another is awaited) and recorded in order, even when a later one was stopped.
    const done = await Promise.all(started.map((s) => s.done));
    for (const [n, s] of started.entries()) {
      const d = done[n];
      if (d) await record(run, s.key, s.call, d.result, d.ms);
    }
    if (stop) return stop;
  }
  return goOn;
}

/** Starts one call (or takes its early or recorded result); a stop from a budget or the gate ends the batch. */
async function start(
  run: TurnRun,
  assistantIndex: number,
  call: ToolCall,
  started: Started[],
): Promise<StepResult | undefined> {
  const key = callKey(assistantIndex, call.id);
  const at = performance.now();
  // Issue 18: a call that ran while the answer streamed has its result already (or soon).
  const known = run.results.get(key) ?? (await takeEarly(run, key));
  if (known) {
    started.push({ call, key, done: timed(at, Promise.resolve(known)) });
    return undefined;
  }
  const tripped = wallTimeLimit(run.turn, run.limits, run.now());
  if (tripped) return outcome(run, { kind: 'limit', ...tripped });
  const verdict = (await run.hooks.beforeToolCall?.(call)) ?? proceed;
  if (!verdict.ok) return outcome(run, { kind: 'stopped', reason: verdict.reason, before: 'tool_call' });
  started.push({ call, key, done: timed(at, runCall(run, call, key)) });
  return undefined;
}

async function record(
  run: TurnRun,
  key: string,
  call: ToolCall,
  result: ToolResult,
  ms: number,
): Promise<void> {
  // Issue 28: near the end of the request budget every result says how many requests are left.
  const left = run.limits.maxModelRequests - run.turn.modelRequests;
  const message: ChatMessage = {
    role: 'tool',
    tool_call_id: call.id,
    content: toolResultText(result) + budgetLine(left),
    ...(result.ok && result.image ? { image: result.image } : {}),
  };
  // Issue 17: when the call ran and for how long, beside its result.
  const step = { kind: 'tool', at: run.now(), index: run.messages.length, ms, key } as const;
  await run.store.recordToolResult(run.sessionId, key, result, message, step);
  run.results.set(key, result);
  run.messages.push(message);
}
