import { turnCounts } from '../stats/daily-counts.ts';
import { storeHandle } from '../store/store-handle.ts';
import { inSpan } from '../tracing/in-span.ts';
import { defaultContextTokens } from './context/context-window.ts';
import { redoEarlyCalls } from './early-tool-calls.ts';
import { modelStep } from './model-step.ts';
import { openTurn } from './open-turn.ts';
import { defaultRetryPolicy } from './retry-policy.ts';
import { runToolCalls } from './run-tool-calls.ts';
import { endRecord } from './step-end.ts';
import { modelSpanAttributes, modelSpanName } from './step-spans.ts';
import { toFunctionTools } from './tool-schema.ts';
import { createTranscriptStore } from './transcript-store.ts';
import { defaultTurnLimits } from './turn-limits.ts';
import type { TurnOutcome } from './turn-outcome.ts';
import type { RunTurnOptions, TurnRun } from './turn-run.ts';
import { outcome } from './usage-of.ts';

/**
 * Runs one turn of a session: model request → tool calls (checked, then run) → results, until the
 * model answers without tool calls or a gate, budget or model failure stops it. The transcript is
 * written after every step, so if this worker dies, calling `runTurn` again with the same
 * `turnId` (anywhere) continues from the last completed step without running a done call twice.
 *
 * Rejects only when the infrastructure fails (Redis, or a tool that throws); the job then retries
 * and resumes. Every other end is a `TurnOutcome`.
 */
export async function runTurn(opts: RunTurnOptions): Promise<TurnOutcome> {
  const now = opts.now ?? Date.now;
  const store = createTranscriptStore(opts);
  const transcript = await store.load(opts.sessionId);
  const opened = await openTurn(store, transcript, opts.sessionId, opts.turnId, opts.input, now());
  if (opened.kind === 'finished') return opened.outcome;

  const run: TurnRun = {
    sessionId: opts.sessionId,
    model: opts.model,
    tools: opts.tools,
    functionTools: toFunctionTools(opts.tools),
    hooks: opts.hooks,
    ...storeHandle(opts),
    store,
    limits: { ...defaultTurnLimits, ...opts.limits },
    retry: { ...defaultRetryPolicy, ...opts.retry },
    metrics: opts.metrics,
    sessionKind: opts.sessionKind ?? 'session',
    log: opts.log?.child({ sessionId: opts.sessionId, turnId: opts.turnId }),
    now,
    messages: transcript.messages,
    results: transcript.results,
    turn: opened.turn,
    signal: opts.signal,
    context: {
      state: transcript.context,
      window: opts.contextTokens ?? defaultContextTokens(opts.model.model),
      factor: 1,
    },
    runEarly: opts.runEarly,
    runTogether: opts.runTogether,
    early: new Map(),
  };
  if (opened.resumed) run.log?.info({ step: transcript.step }, 'resuming turn from transcript');
  if (opened.resumed) await redoEarlyCalls(run, transcript.early);
  return finish(run, (opened.resumed ? endedBeforeCrash(run) : undefined) ?? (await loop(run)));
}

/** A worker that died between storing the final answer and the outcome: the turn had ended. */
function endedBeforeCrash(run: TurnRun): TurnOutcome | undefined {
  const last = run.messages.at(-1);
  if (last?.role !== 'assistant' || last.tool_calls?.length) return undefined;
  return outcome(run, { kind: 'ended', text: last.content }).outcome;
}

async function loop(run: TurnRun): Promise<TurnOutcome> {
  for (;;) {
    const tools = await runToolCalls(run);
    if (tools.kind === 'finished') return tools.outcome;
    const step = await inSpan(modelSpanName(run), modelSpanAttributes(run), () => modelStep(run));
    if (step.kind === 'finished') return step.outcome;
  }
}

async function finish(run: TurnRun, outcome: TurnOutcome): Promise<TurnOutcome> {
  run.turn.status = outcome.kind;
  run.turn.outcome = outcome;
  const end = endRecord(run, outcome);
  // Issue 17: a stopped turn (a pause, a shutdown hand-over) resumes under its id and is counted
  // where it ends; its time stopped is not in `startedAt` (see `openTurn`).
  const daily =
    outcome.kind === 'stopped' ? undefined : turnCounts(run.sessionKind, end.at, end.at - run.turn.startedAt);
  await run.store.saveTurn(run.sessionId, run.turn, end, daily);
  run.log?.info({ outcome: outcome.kind, ...outcome.usage }, 'turn finished');
  return outcome;
}
