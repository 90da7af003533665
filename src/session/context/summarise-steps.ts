import type { ChatMessage } from '../chat-message.ts';
import type { ModelClient } from '../model-client.ts';
import type { ModelUsage } from '../model-reply.ts';
import { type RetryHooks, requestWithRetry } from '../request-with-retry.ts';
import type { RetryPolicy } from '../retry-policy.ts';
import { contextPrompts } from './context-prompts.ts';
import { type ContextState, viewedMessage } from './context-state.ts';
import { estimateTextTokens } from './count-tokens.ts';

export interface SummariseInput {
  messages: readonly ChatMessage[];
  /** The state before this compaction: its summary is folded into the new one. */
  state: ContextState;
  /** The elided view's state, so the summariser reads outputs as the model last saw them. */
  elided: ContextState;
  from: number;
  to: number;
  /** Tokens the summarising request may use, and the summary's own cap. */
  inputTokens: number;
  summaryTokens: number;
}

export type Summary =
  | { ok: true; text: string; usage: ModelUsage; answered: boolean; fromModel: boolean }
  | { ok: false; aborted: true };

/**
 * Summarises steps `[from, to)` (and the previous summary) in ONE model call into a "progress so
 * far" text (R-H2). The steps go as one plain-text user message with no tools offered, so no
 * provider rule about tool-call history applies and the model cannot act instead of summarising.
 * If the model fails or answers nothing, a mechanical digest of the steps stands in: compaction
 * must not depend on the model cooperating. Only a shutdown stops it.
 */
export async function summariseSteps(
  model: ModelClient,
  input: SummariseInput,
  retry: RetryPolicy,
  hooks: RetryHooks,
): Promise<Summary> {
  const content = renderSteps(input, input.inputTokens);
  const attempt = await requestWithRetry(
    model,
    // Issue 48: a summary needs no reasoning first; thinking would only cost time and tokens.
    {
      system: contextPrompts.summarise,
      messages: [{ role: 'user', content }],
      tools: [],
      withoutThinking: true,
    },
    retry,
    hooks,
  );
  if (!attempt.ok && attempt.aborted) return { ok: false, aborted: true };
  const said = attempt.ok ? (attempt.reply.message.content ?? '').trim() : '';
  const usage = attempt.ok
    ? attempt.reply.usage
    : { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0 };
  const text = said || digest(input);
  return {
    ok: true,
    text: capTokens(text, input.summaryTokens),
    usage,
    answered: attempt.ok,
    fromModel: Boolean(said),
  };
}

/**
 * The steps as text for the summariser, within `budget` tokens: outputs as the elided view shows
 * them, and when that is still too long every message shortened alike (head and tail).
 */
export function renderSteps(input: SummariseInput, budget: number): string {
  const parts: string[] = [];
  if (input.state.summary !== undefined) parts.push(`[previous summary]\n${input.state.summary}`);
  for (let i = input.from; i < input.to; i++)
    parts.push(renderMessage(viewedMessage(input.messages, i, input.elided)));
  let text = parts.join('\n\n');
  for (let cap = 4000; estimateTextTokens(text) > budget && cap >= 100; cap = Math.floor(cap / 2)) {
    text = parts.map((p) => shorten(p, cap)).join('\n\n');
  }
  return capTokens(text, budget);
}

function renderMessage(m: ChatMessage): string {
  if (m.role === 'tool') return `[tool result ${m.tool_call_id}]\n${m.content}`;
  if (m.role === 'user') return `[user]\n${m.content}`;
  const calls = (m.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments}) id=${c.id}`);
  return [`[assistant]`, m.content ?? '', ...calls.map((c) => `calls ${c}`)].filter(Boolean).join('\n');
}

/** Without a model's summary: which tools were called with what, one line each, and what people said. */
function digest(input: SummariseInput): string {
  const lines: string[] = input.state.summary !== undefined ? [input.state.summary] : [];
  for (let i = input.from; i < input.to; i++) {
    const m = input.messages[i];
    if (m?.role === 'user') lines.push(`- input: ${shorten(m.content, 600)}`);
    if (m?.role === 'assistant') {
      if (m.content) lines.push(`- you said: ${shorten(m.content, 300)}`);
      for (const c of m.tool_calls ?? [])
        lines.push(`- you called ${c.function.name}(${shorten(c.function.arguments, 200)})`);
    }
  }
  return lines.join('\n');
}

function shorten(s: string, chars: number): string {
  if (s.length <= chars) return s;
  const half = Math.floor(chars / 2);
  return `${s.slice(0, half)}\n[… ${s.length - 2 * half} characters cut …]\n${s.slice(-half)}`;
}

/** Cuts a text to at most about `tokens` by the same estimate. */
function capTokens(text: string, tokens: number): string {
  if (estimateTextTokens(text) <= tokens) return text;
  let chars = Math.floor(tokens / 0.3);
  while (chars > 0 && estimateTextTokens(text.slice(0, chars)) > tokens) chars = Math.floor(chars * 0.8);
  return `${text.slice(0, chars)}\n[… cut to fit]`;
}
