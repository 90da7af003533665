import type { AssistantMessage } from './chat-message.ts';
import { ProviderCutError } from './errors/provider-cut-error.ts';
import { TruncatedAnswerError } from './errors/truncated-answer-error.ts';

/**
 * What an answer's `finish_reason` means for the turn (issue 28), the same streamed or not:
 * `length` inside a tool call refuses the answer (its arguments may be partial: the turn retries
 * it once with a note), `length` in text marks it cut (the turn asks the model to go on),
 * DeepSeek's `insufficient_system_resource` is the provider's failure (retried like a 503).
 * Returns whether the text was cut; throws for answers that must not be stored.
 */
export function checkFinish(reason: string | null | undefined, message: AssistantMessage): boolean {
  if (reason === 'insufficient_system_resource') throw new ProviderCutError(reason);
  if (reason !== 'length') return false;
  const last = message.tool_calls?.at(-1);
  if (last) throw new TruncatedAnswerError(last.function.name || '(unnamed)', reason);
  return true;
}
