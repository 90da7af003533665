import { z } from 'zod';
import type { ChatMessage } from '../chat-message.ts';
import { progressText } from './context-prompts.ts';
import { elideToolImage, elideToolOutput, hasLaterImage } from './elide-tool-outputs.ts';

/**
 * How the transcript is compacted (R-H2), persisted beside it. The stored messages are never
 * rewritten or removed: indices into the list stay valid (tool-call keys and idempotency keys are
 * built from them), and what the model sees is a view over the list. Both marks only move forward,
 * and only at step boundaries, so the view is stable between compactions (the provider's prefix
 * cache keeps serving it) and the same on every worker that resumes the turn.
 */
export const ContextStateSchema = z.object({
  /** Messages before this index are replaced by `summary` in the view. */
  summarisedBefore: z.number(),
  /** Tool outputs before this index are elided (head and tail kept) in the view. */
  elidedBefore: z.number(),
  /** The "progress so far" written at the last summarising compaction. */
  summary: z.string().optional(),
  /** Compactions so far (for logs, the API and tests). */
  compactions: z.number(),
});
export type ContextState = z.infer<typeof ContextStateSchema>;

export const freshContext = (): ContextState => ({ summarisedBefore: 0, elidedBefore: 0, compactions: 0 });

/** The summary as the message that opens the view. */
export const progressMessage = (summary: string): ChatMessage => ({
  role: 'user',
  content: progressText(summary),
});

/**
 * The messages sent to the model: the summary (if any), then the stored messages from
 * `summarisedBefore` on, tool outputs before `elidedBefore` elided. Assistant messages are passed
 * as they are, every field kept (`reasoning_content` included).
 */
export function contextView(messages: readonly ChatMessage[], state: ContextState): ChatMessage[] {
  const out: ChatMessage[] = state.summary !== undefined ? [progressMessage(state.summary)] : [];
  for (let i = state.summarisedBefore; i < messages.length; i++) {
    out.push(viewedMessage(messages, i, state));
  }
  return out;
}

/**
 * Message `i` as the view shows it: a tool output before `elidedBefore` elided, and a picture
 * elided once a newer one follows (issue 28: only the newest picture stays whole).
 */
export function viewedMessage(messages: readonly ChatMessage[], i: number, state: ContextState): ChatMessage {
  const m = messages[i] as ChatMessage;
  if (m.role !== 'tool') return m;
  const shown = i < state.elidedBefore ? elideToolOutput(m, messages, i) : m;
  return m.image && hasLaterImage(messages, i) ? elideToolImage(shown) : shown;
}

/**
 * Indices where a step starts: every message that is not a tool result. Cutting the transcript
 * only there never separates an assistant's tool calls from their results.
 */
export function isStepStart(messages: readonly ChatMessage[], i: number): boolean {
  return i >= messages.length || messages[i]?.role !== 'tool';
}

/** A turn's view of its context: the persisted state, the window, and the estimate's learned factor. */
export interface TurnContext {
  state: ContextState;
  /** The model's window in tokens (`LLM_CONTEXT_TOKENS`, or the model's default). */
  window: number;
  /** How much the provider counted above our estimate (≥ 1); learned per turn, not persisted. */
  factor: number;
}
