import type { AssistantMessage } from './chat-message.ts';

export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

/** One model answer: the assistant message to append and what it cost. */
export interface ModelReply {
  message: AssistantMessage;
  usage: ModelUsage;
}
