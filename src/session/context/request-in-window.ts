import type { ChatMessage } from '../chat-message.ts';
import type { ModelAttempt, RetryHooks } from '../request-with-retry.ts';
import { requestWithRetry } from '../request-with-retry.ts';
import type { ToolCallListener } from '../tool-call-listener.ts';
import type { TurnRun } from '../turn-run.ts';
import { compactTranscript } from './compact-transcript.ts';
import { contextOverflow } from './context-overflow.ts';
import { calibrate } from './count-tokens.ts';

/**
 * The turn's model request within the window (R-H2): the transcript compacted as needed, then
 * the request with retries. A 400 for context length means our estimate was short: the window
 * and the estimate's factor are corrected from what the error names, the transcript compacted
 * (forced) and the request retried once. Any other 400 comes back as it is (the turn fails with
 * it, and the ticket waits with one message naming why). `withoutThinking` asks the provider to
 * answer this one without thinking (the executor's acknowledgement, issue 28).
 */
export async function requestInWindow(
  run: TurnRun,
  system: string,
  hooks: RetryHooks,
  onToolCall?: ToolCallListener,
  withoutThinking = false,
): Promise<ModelAttempt> {
  let prepared = await compactTranscript(run, system, hooks);
  if (!prepared.ok) return { ok: false, reason: 'aborted', attempts: 0, aborted: true };
  // Only the turn's own answer runs calls early (issue 18), never a summarising call.
  const asking: RetryHooks = onToolCall ? { ...hooks, onToolCall } : hooks;
  const ask = (messages: ChatMessage[]) =>
    requestWithRetry(
      run.model,
      { system, messages, tools: run.functionTools, ...(withoutThinking ? { withoutThinking } : {}) },
      run.retry,
      asking,
    );
  let attempt = await ask(prepared.messages);
  const overflow = attempt.ok || attempt.aborted ? undefined : contextOverflow(attempt.error);
  if (overflow) {
    run.log?.warn(
      { sessionId: run.sessionId, ...overflow },
      'model refused the request as too long: compacting',
    );
    if (overflow.limit) run.context.window = Math.min(run.context.window, overflow.limit);
    // No count in the error: assume we were half again short.
    const reported = overflow.requested ?? prepared.tokens * run.context.factor * 1.5;
    run.context.factor = calibrate(run.context.factor, prepared.tokens, reported);
    prepared = await compactTranscript(run, system, hooks, true);
    if (!prepared.ok) return { ok: false, reason: 'aborted', attempts: 0, aborted: true };
    attempt = await ask(prepared.messages);
  }
  if (attempt.ok) {
    run.context.factor = calibrate(run.context.factor, prepared.tokens, attempt.reply.usage.promptTokens);
  }
  return attempt;
}
