import { type ChatMessage, callKey, type ToolCall } from './chat-message.ts';
import { runCall } from './run-call.ts';
import type { ToolResult } from './tool.ts';
import type { ToolCallListener } from './tool-call-listener.ts';
import { wallTimeLimit } from './turn-limits.ts';
import { proceed } from './turn-outcome.ts';
import type { TurnRun } from './turn-run.ts';

/**
 * Issue 18: tool calls the caller allows (`runEarly`: the executor's acknowledgement) run as soon
 * as they are complete in the streamed answer, before the rest of it — through the same gates and
 * dispatch, under the key the call will have once the answer is stored (its index is the
 * transcript's length now). Only leading calls run early, each after the one before it has
 * finished, so calls still run in the model's order (two acknowledgements in one answer: the first
 * is sent, the second refused — never the other way round).
 *
 * A crash at any point repeats nothing: before the marker nothing ran; after it, a resumed turn
 * whose answer was never stored runs the marked call again under the same key (`redoEarlyCalls`),
 * which the tool makes idempotent; once the answer is stored its result is recorded as any other.
 */
export function earlyListener(run: TurnRun): ToolCallListener | undefined {
  const allow = run.runEarly;
  if (!allow) return undefined;
  const assistantIndex = run.messages.length;
  let leading = 0;
  // A call runs early only when every early call before it ran (a gate's no or a failure leaves
  // the rest to the ordinary path, which stops there).
  let previous: Promise<unknown> = Promise.resolve(true);
  return (call, index) => {
    if (index !== leading || !allow(call)) return;
    leading += 1;
    const key = callKey(assistantIndex, call.id);
    if (run.early.has(key) || run.results.has(key)) return;
    const started = previous.then(
      (ran) => (ran === undefined ? undefined : startEarly(run, call, key)),
      () => undefined,
    );
    previous = started;
    // Awaited where its answer is recorded; this only keeps a discarded one from going unhandled.
    started.catch(() => undefined);
    run.early.set(key, started);
  };
}

/** Undefined when a gate said no: the call then takes the ordinary path, which stops the turn. */
async function startEarly(run: TurnRun, call: ToolCall, key: string): Promise<ToolResult | undefined> {
  if (wallTimeLimit(run.turn, run.limits, run.now())) return undefined;
  const verdict = (await run.hooks.beforeToolCall?.(call)) ?? proceed;
  if (!verdict.ok) return undefined;
  await run.store.noteEarlyCall(run.sessionId, key, call);
  return runCall(run, call, key);
}

/** The result of a call that ran early, awaited (a failure throws as the call itself would). */
export async function takeEarly(run: TurnRun, key: string): Promise<ToolResult | undefined> {
  const started = run.early.get(key);
  if (!started) return undefined;
  run.early.delete(key);
  return started;
}

/**
 * Early calls of answers that were discarded (a failed attempt, retried, or no answer at all):
 * awaited, so the turn never moves on while one still runs. `answer` is the stored answer, whose
 * own calls keep theirs for the ordinary path to record.
 */
export async function settleStrayEarly(run: TurnRun, answer: ChatMessage | undefined): Promise<void> {
  const index = run.messages.length - 1;
  const kept = new Set(
    answer?.role === 'assistant' ? (answer.tool_calls ?? []).map((c) => callKey(index, c.id)) : [],
  );
  const strays: string[] = [];
  for (const [key, started] of run.early) {
    if (kept.has(key)) continue;
    run.early.delete(key);
    strays.push(key);
    await started;
  }
  await run.store.clearEarlyCalls(run.sessionId, strays);
}

/**
 * A resumed turn (issue 18): early calls noted for an answer that was never stored are run again
 * under their keys, finishing whatever the crash cut (the tool repeats no side effect); notes of
 * answers that were stored are done with.
 */
export async function redoEarlyCalls(run: TurnRun, noted: Map<string, ToolCall>): Promise<void> {
  if (!noted.size) return;
  for (const [key, call] of noted) {
    if (Number(key.split(':')[0]) === run.messages.length) await runCall(run, call, key);
  }
  await run.store.clearEarlyCalls(run.sessionId, [...noted.keys()]);
}
