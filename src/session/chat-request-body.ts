import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { ChatContract } from './chat-contract.ts';
import { thinkingOn } from './chat-contract.ts';
import type { ChatMessage } from './chat-message.ts';
import { acceptsImages } from './image-input.ts';
import { toWireMessages, type WireMessage } from './wire-messages.ts';

export interface ChatRequestBody {
  model: string;
  messages: WireMessage[];
  tools?: ChatCompletionFunctionTool[];
  /** DeepSeek and other compatible endpoints: the answer's token cap. */
  max_tokens?: number;
  /** OpenAI's name for the cap (`max_tokens` is refused by its reasoning models). */
  max_completion_tokens?: number;
  thinking?: { type: 'enabled' | 'disabled' };
  reasoning_effort?: 'high' | 'max';
}

/**
 * The request body for one model request (R-H1). DeepSeek gets its `thinking` switch on every
 * request (so the session kind's choice holds whatever DeepSeek's default) and `reasoning_effort`
 * only with thinking on; no other provider gets either. No sampling field (`temperature`, `top_p`,
 * penalties) is ever sent: thinking mode does not support them, and the defaults serve both kinds.
 * Every request carries the answer's token cap (`LLM_MAX_TOKENS`, issue 28), so an answer cut
 * at it says so (`finish_reason: "length"`) instead of running into a provider's hidden default.
 *
 * A request asked `withoutThinking` (the executor's acknowledgement, issue 28) goes to DeepSeek as
 * a thinking-off request: the switch is per request, and the one rule across requests — while
 * thinking is on, every tool-call message carries its reasoning — holds in the requests that
 * follow, where `toWireMessages` sends the answer made without thinking with a placeholder.
 */
export function chatRequestBody(
  model: string,
  sessionContract: ChatContract,
  req: {
    system: string;
    messages: readonly ChatMessage[];
    tools: ChatCompletionFunctionTool[];
    withoutThinking?: boolean | undefined;
  },
  maxTokens?: number,
): ChatRequestBody {
  const contract: ChatContract =
    req.withoutThinking && thinkingOn(sessionContract)
      ? { ...sessionContract, thinking: 'disabled' }
      : sessionContract;
  const body: ChatRequestBody = {
    model,
    messages: [
      { role: 'system', content: req.system },
      ...toWireMessages(req.messages, contract, acceptsImages(contract.provider, model)),
    ],
    ...(req.tools.length ? { tools: req.tools } : {}),
  };
  if (maxTokens !== undefined) {
    if (contract.provider === 'openai') body.max_completion_tokens = maxTokens;
    else body.max_tokens = maxTokens;
  }
  if (contract.provider !== 'deepseek') return body;
  const on = thinkingOn(contract);
  body.thinking = { type: on ? 'enabled' : 'disabled' };
  if (on && contract.reasoningEffort) body.reasoning_effort = contract.reasoningEffort;
  return body;
}
