/**
 * The transcript's messages, in the Chat Completions wire shape so they go to the model as they
 * are stored. The system prompt is not among them: it is assembled afresh before every model
 * request (R-F3), never persisted as part of the conversation.
 */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A thinking block of Anthropic's Messages API, kept verbatim (its signature covers its text). */
export type ThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/**
 * A picture a tool result carries (issue 28: the screenshot the executor took, downscaled), as
 * base64. It goes to the model only where the provider accepts images (`toWireMessages`,
 * `toAnthropicMessages`); elsewhere the result's text is all it gets.
 */
export interface ToolImage {
  media_type: 'image/png';
  width: number;
  height: number;
  data: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      /**
       * The model's chain of thought (DeepSeek thinking mode), kept as it came, streamed or not
       * (R-H1). Whether it goes back to the model is the provider's rule (`toWireMessages`).
       * Transcripts written before issue 12 have none.
       */
      reasoning_content?: string;
      /**
       * Anthropic's thinking blocks of this answer, signatures included, exactly as they came
       * (R-H1): the Messages API wants them back unmodified, first in the assistant turn, on
       * tool-use turns. Only the Anthropic client reads them; other providers never see them.
       */
      thinking_blocks?: ThinkingBlock[];
    }
  | {
      role: 'tool';
      tool_call_id: string;
      content: string;
      /** The picture of this result (issue 28), stored with it. */
      image?: ToolImage;
      /**
       * View only, never stored: the picture was elided from the view (`contextView` keeps only the
       * newest whole); the model is told so where it would have seen it.
       */
      image_elided?: { width: number; height: number };
    };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** The tool calls a turn still owes answers for, and where their assistant message sits. */
export interface PendingCalls {
  /** Index of the assistant message in the transcript; part of each call's stable key. */
  assistantIndex: number;
  calls: ToolCall[];
}

/**
 * Tool calls of the last assistant message that have no tool message yet: the work a turn must
 * finish before its next model request (the API refuses a transcript with unanswered calls).
 */
export function pendingToolCalls(messages: readonly ChatMessage[]): PendingCalls {
  let i = messages.length - 1;
  const answered = new Set<string>();
  for (let m = messages[i]; m?.role === 'tool'; m = messages[--i]) answered.add(m.tool_call_id);
  const last = messages[i];
  if (last?.role !== 'assistant' || !last.tool_calls) return { assistantIndex: i, calls: [] };
  return { assistantIndex: i, calls: last.tool_calls.filter((c) => !answered.has(c.id)) };
}

/**
 * A call's key within its session: the assistant message's index and the model's call id. The
 * index guards against providers that reuse call ids (`call_0`) from one answer to the next.
 */
export const callKey = (assistantIndex: number, callId: string): string => `${assistantIndex}:${callId}`;
