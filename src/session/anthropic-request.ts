import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { type AnthropicThinking, thinkingParams } from './anthropic-thinking.ts';
import type { ChatMessage } from './chat-message.ts';
import type { ModelRequest } from './model-client.ts';
import { elidedPictureNote } from './picture-notes.ts';

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Anthropic refuses empty text blocks; a transcript may hold an empty message. */
const EMPTY = '(empty)';

/**
 * Anthropic's `tool_use.id` must match `^[a-zA-Z0-9_-]+$`; ids from another provider (a ticket
 * that switched providers) may not. The same mapping runs on `tool_use` and `tool_result`, so
 * the pair still matches.
 */
export const anthropicToolId = (id: string): string => id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'call';

/**
 * Our Chat-Completions-shaped request as a Messages API body (R-H1). Tool results become
 * `tool_result` blocks in a user message; consecutive messages of one role are merged into one
 * (the API wants `user`/`assistant` turns to alternate, and every `tool_use` answered in the
 * very next user message). Prompt caching: breakpoints on the last tool and on the system
 * prompt (the stable prefix, cached across steps and sessions), and one sliding breakpoint on
 * the last message so the next step reads the conversation so far from the cache. Three of
 * the four the API allows.
 */
export function toAnthropicParams(
  req: ModelRequest,
  model: string,
  maxTokens: number,
  thinking?: AnthropicThinking,
): MessageCreateParamsNonStreaming {
  const tools: Tool[] = req.tools.map((t) => ({
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    input_schema: { type: 'object', ...(t.function.parameters ?? {}) } as Tool.InputSchema,
  }));
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  const messages = toAnthropicMessages(req.messages);
  const lastBlock = lastBlockOf(messages.at(-1));
  if (lastBlock) lastBlock.cache_control = EPHEMERAL;
  const system: TextBlockParam[] = req.system
    ? [{ type: 'text', text: req.system, cache_control: EPHEMERAL }]
    : [];
  return {
    model,
    max_tokens: maxTokens,
    messages,
    ...(system.length ? { system } : {}),
    ...(tools.length ? { tools } : {}),
    ...thinkingParams(model, maxTokens, thinking, req.withoutThinking ?? false),
  };
}

/** The transcript as alternating Messages API turns. */
export function toAnthropicMessages(transcript: readonly ChatMessage[]): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const m of transcript) {
    const blocks = blocksOf(m);
    if (!blocks.length) continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const prev = out.at(-1);
    if (prev?.role === role) {
      // Tool results must open the user message that answers the tool calls.
      prev.content = m.role === 'tool' ? mergeResult(prev.content, blocks) : [...prev.content, ...blocks];
    } else out.push({ role, content: blocks });
  }
  // The conversation must open with a user turn.
  if (out[0]?.role === 'assistant') out.unshift({ role: 'user', content: [{ type: 'text', text: EMPTY }] });
  return out;
}

function mergeResult(prev: ContentBlockParam[], result: ContentBlockParam[]): ContentBlockParam[] {
  const firstOther = prev.findIndex((b) => b.type !== 'tool_result');
  if (firstOther < 0) return [...prev, ...result];
  return [...prev.slice(0, firstOther), ...result, ...prev.slice(firstOther)];
}

function blocksOf(m: ChatMessage): ContentBlockParam[] {
  if (m.role === 'user') return [{ type: 'text', text: m.content || EMPTY }];
  if (m.role === 'tool') {
    return [
      {
        type: 'tool_result',
        tool_use_id: anthropicToolId(m.tool_call_id),
        content: resultContent(m),
        // dispatch-tool-call renders a refusal as `Error: …`.
        ...(m.content.startsWith('Error: ') ? { is_error: true } : {}),
      },
    ];
  }
  // An answer of thinking alone says nothing to send back; earlier turns' thinking may be left out.
  if (!m.content && !m.tool_calls?.length) return [];
  // Thinking first, unmodified and in order: the API checks each block's signature, and with
  // thinking on it wants the tool-use turn it continues to open with its thinking.
  const blocks: ContentBlockParam[] = [...(m.thinking_blocks ?? [])];
  if (m.content) blocks.push({ type: 'text', text: m.content });
  for (const c of m.tool_calls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: anthropicToolId(c.id),
      name: c.function.name,
      input: inputOf(c.function.arguments),
    });
  }
  return blocks;
}

/**
 * A tool result's content: its text, and its picture where it has one (issue 28: every current
 * Claude model reads pictures, inside the `tool_result` itself); an elided picture leaves a note.
 */
function resultContent(
  m: Extract<ChatMessage, { role: 'tool' }>,
): string | Array<TextBlockParam | ImageBlockParam> {
  const text = m.content || EMPTY;
  const note = elidedPictureNote(m);
  if (note)
    return [
      { type: 'text', text },
      { type: 'text', text: note },
    ];
  if (!m.image) return text;
  const source = { type: 'base64', media_type: m.image.media_type, data: m.image.data } as const;
  return [
    { type: 'text', text },
    { type: 'image', source },
  ];
}

/** Arguments were checked as JSON when the answer arrived; an empty string is no arguments. */
function inputOf(args: string): Record<string, unknown> {
  if (!args.trim()) return {};
  const parsed: unknown = JSON.parse(args);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

type CacheableBlock = Exclude<ContentBlockParam, { type: 'thinking' } | { type: 'redacted_thinking' }>;

function lastBlockOf(m: MessageParam | undefined): CacheableBlock | undefined {
  if (!m || typeof m.content === 'string') return undefined;
  const b = m.content.at(-1);
  return b && b.type !== 'thinking' && b.type !== 'redacted_thinking' ? b : undefined;
}
