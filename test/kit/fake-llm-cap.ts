import type { FakeReply } from './fake-llm-reply.ts';
import type { RecordedRequest } from './fake-llm-request.ts';

type MessageReply = Extract<FakeReply, { type: 'message' }>;

/** Characters per token, as the fake counts prompt tokens (`fake-llm-tokens.ts`). */
const CHARS_PER_TOKEN = 4;

/** The request's answer cap: DeepSeek's `max_tokens`, OpenAI's `max_completion_tokens`. */
export function maxTokensOf(req: RecordedRequest): number | undefined {
  const cap = req.body.max_tokens ?? req.body.max_completion_tokens;
  return typeof cap === 'number' ? cap : undefined;
}

/**
 * The scripted answer as a provider would send it under the request's cap (issue 28): reasoning
 * (thinking on: DeepSeek counts the chain of thought in `max_tokens`, its reasoning guide says),
 * text and tool-call arguments are written in order, and once `max_tokens` worth of them is out
 * the answer stops there — mid-reasoning, mid-text or mid-arguments — with `finish_reason:
 * "length"`. A scripted `finishReason` wins (DeepSeek's `insufficient_system_resource`).
 */
export function capAnswer(
  reply: MessageReply,
  req: RecordedRequest,
  reasoning?: string,
): { reply: MessageReply; finish: string | undefined; reasoning: string | undefined } {
  const cap = maxTokensOf(req);
  if (cap === undefined) return { reply, finish: reply.finishReason, reasoning };
  let left = cap * CHARS_PER_TOKEN;
  const take = (s: string) => {
    const out = s.slice(0, Math.max(0, left));
    left -= s.length;
    return out;
  };
  const thought = reasoning === undefined ? undefined : take(reasoning);
  const text = reply.text === undefined ? undefined : take(reply.text);
  const calls = [];
  for (const c of reply.toolCalls ?? []) {
    if (left <= 0) break;
    const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {});
    calls.push({ ...c, arguments: take(args) });
  }
  const cut = left < 0;
  const capped: MessageReply = {
    ...reply,
    ...(text === undefined ? {} : { text }),
    ...(reply.toolCalls ? { toolCalls: calls } : {}),
  };
  return { reply: capped, finish: reply.finishReason ?? (cut ? 'length' : undefined), reasoning: thought };
}
