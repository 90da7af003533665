import { usageCounts } from '../stats/daily-counts.ts';
import { annotateSpan } from '../tracing/in-span.ts';
import { requestInWindow } from './context/request-in-window.ts';
import { earlyListener, settleStrayEarly } from './early-tool-calls.ts';
import { TruncatedAnswerError } from './errors/truncated-answer-error.ts';
import { addHostNote, cutTextNote, cutToolCallNote, notesGiven, unfinishedNote } from './host-note.ts';
import { recordModelLast, requestEnd } from './model-last.ts';
import { recordRevision } from './record-revision.ts';
import { isTransient } from './retry-policy.ts';
import { usageAttributes } from './step-spans.ts';
import { turnCalls } from './turn-calls.ts';
import { limitBeforeModelRequest } from './turn-limits.ts';
import { countCost, countRequest, countTokens, timeRequest } from './turn-metrics.ts';
import { proceed, stopReasonOf } from './turn-outcome.ts';
import { goOn, type StepResult, type TurnRun } from './turn-run.ts';
import { outcome } from './usage-of.ts';

/** Notes a turn may get for ending with work unreported before it is let end (issue 28). */
const MAX_UNFINISHED_NOTES = 2;

/**
 * One model request: budgets, the caller's gate, a freshly assembled system prompt (R-F3: read
 * at every request, its revision recorded on the session), the request with retries, then the
 * answer appended (with the revision) as one step. An answer without tool calls ends the turn,
 * unless it was cut at the output cap (issue 28: the model is asked once to go on); a tool call
 * cut there is asked for once more with a note instead of failing the turn.
 */
export async function modelStep(run: TurnRun): Promise<StepResult> {
  const tripped = limitBeforeModelRequest(run.turn, run.limits, run.now());
  if (tripped) return outcome(run, { kind: 'limit', ...tripped });
  const verdict = (await run.hooks.beforeModelRequest?.()) ?? proceed;
  if (!verdict.ok) return outcome(run, { kind: 'stopped', reason: verdict.reason, before: 'model_request' });

  const prompt = await run.hooks.systemPrompt();
  // Issue 28: the caller may have this request answered without thinking (an acknowledgement).
  const withoutThinking = (await run.hooks.withoutThinking?.(run.turn)) ?? false;
  const started = performance.now();
  // R-H2: the transcript as the model sees it, compacted first when it nears the window.
  const attempt = await requestInWindow(
    run,
    prompt.text,
    {
      ...(run.signal ? { signal: run.signal } : {}),
      onError: (err, n, willRetry) => {
        countRequest(run.metrics, run.sessionKind, run.model.model, 'error');
        run.log?.warn({ sessionId: run.sessionId, attempt: n, willRetry, err }, 'model request failed');
      },
    },
    earlyListener(run),
    withoutThinking,
  );
  // Issue 18: calls an answer started early are done before the turn moves on, whatever follows.
  if (!attempt.ok) await settleStrayEarly(run, undefined);
  if (!attempt.ok && attempt.aborted) {
    // Nothing of the answer was stored: the turn resumes with this same request elsewhere, or
    // after the resume of a pause that aborted it (issue 28).
    return outcome(run, { kind: 'stopped', reason: stopReasonOf(run.signal), before: 'model_request' });
  }
  if (!attempt.ok && attempt.error instanceof TruncatedAnswerError && !notesGiven(run, 'cut-tool-call')) {
    // Issue 28: a tool call cut at the output cap is asked for once more, told why and how.
    const note = cutToolCallNote(run, attempt.error.toolName, run.model.maxTokens);
    await addHostNote(run, 'cut-tool-call', note);
    return goOn;
  }
  if (!attempt.ok) {
    timeRequest(run.metrics, run.sessionKind, run.model.model, 'failed', performance.now() - started);
    // Issue 33: Home shows the last request's outcome and latency without asking the model itself.
    await recordModelLast(run, requestEnd(run, performance.now() - started, attempt.reason));
    await recordRevision(run, run.sessionId, prompt.revision);
    const reason = `${attempt.reason} (after ${attempt.attempts} attempts)`;
    // Issue 28 "model outages": a failure retrying might yet cure, for the caller to run again later.
    const transient = isTransient(attempt.error) ? { transient: true as const } : {};
    return outcome(run, { kind: 'failed', reason, ...transient });
  }

  const { message, usage } = attempt.reply;
  countRequest(run.metrics, run.sessionKind, run.model.model, 'ok');
  countTokens(run.metrics, run.sessionKind, run.model.model, usage);
  annotateSpan(usageAttributes(usage));
  const tokens = usage.promptTokens + usage.completionTokens;
  run.turn.modelRequests += 1;
  run.turn.tokens += tokens;
  // Issue 17: the request's latency (retries and compaction included) and cost, for the trajectory.
  const ms = Math.round(performance.now() - started);
  timeRequest(run.metrics, run.sessionKind, run.model.model, 'ok', ms);
  const at = run.now();
  const spend = run.hooks.spendOf?.(run.model.model, usage, at);
  countCost(run.metrics, run.sessionKind, run.model.model, spend?.nanos);
  await recordModelLast(run, requestEnd(run, ms));
  await run.store.appendStep(run.sessionId, [message], run.turn, {
    revision: prompt.revision,
    usage,
    daily: usageCounts(run.sessionKind, at, usage, spend),
    step: {
      kind: 'model',
      at,
      index: run.messages.length,
      ms,
      model: run.model.model,
      revision: prompt.revision,
      usage,
    },
    also: run.hooks.countUsage?.({ modelRequests: 1, tokens }),
  });
  await run.hooks.afterModelRequest?.();
  run.messages.push(message);
  await settleStrayEarly(run, message);
  if (message.tool_calls?.length) return goOn;
  if (attempt.reply.cutAtLimit && !notesGiven(run, 'cut-text')) {
    // Issue 28: text cut at the output cap is not an ending; the model is asked once to go on.
    await addHostNote(run, 'cut-text', cutTextNote(run.model.maxTokens));
    return goOn;
  }
  // Issue 28 "no silent stop": an ending that leaves work unreported gets a note, twice at most.
  const unfinished =
    notesGiven(run, 'unfinished') < MAX_UNFINISHED_NOTES
      ? await run.hooks.beforeEnd?.(turnCalls(run))
      : undefined;
  if (unfinished) {
    await addHostNote(run, 'unfinished', unfinishedNote(unfinished));
    return goOn;
  }
  return outcome(run, { kind: 'ended', text: message.content });
}
