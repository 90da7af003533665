import { describe, expect, it } from 'vitest';
import { toAnthropicParams } from '../../../src/session/anthropic-request.ts';
import type { ChatMessage, ToolImage } from '../../../src/session/chat-message.ts';
import { chatRequestBody } from '../../../src/session/chat-request-body.ts';
import { contextView, freshContext } from '../../../src/session/context/context-state.ts';
import { estimateMessageTokens } from '../../../src/session/context/count-tokens.ts';
import { acceptsImages } from '../../../src/session/image-input.ts';

// A 1×1 PNG and a 2×1 one, as the screenshot tool stores them (base64).
const ONE =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const image = (width: number, height: number, data = ONE): ToolImage => ({
  media_type: 'image/png',
  width,
  height,
  data,
});

const shot = (id: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
});
const result = (id: string, img: ToolImage): ChatMessage => ({
  role: 'tool',
  tool_call_id: id,
  content: `took the "after" screenshot ${id}`,
  image: img,
});

const transcript: ChatMessage[] = [
  { role: 'user', content: 'Ticket T1: look at the page' },
  shot('c1'),
  result('c1', image(1238, 928)),
  shot('c2'),
  result('c2', image(400, 300)),
];
const view = contextView(transcript, freshContext());
const req = (messages: ChatMessage[]) => ({ system: 'sys', messages, tools: [] });
const CAPTION = (w: number, h: number) =>
  `[host] The picture of the tool result above (${w}×${h} pixels, downscaled):`;
const ELIDED =
  '[host] A picture of the tool result above (1238×928 pixels) was taken out of view to keep the context small: only the newest picture stays. Take the screenshot again to see it.';

describe('issue 28: a tool result’s picture, as each provider is sent it', () => {
  it('the view keeps only the newest picture whole; the older one is named by its size, its text unchanged', () => {
    expect(view[2]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'took the "after" screenshot c1',
      image_elided: { width: 1238, height: 928 },
    });
    expect(view[4]).toEqual(transcript[4]);
    // The stored transcript is never rewritten.
    expect((transcript[2] as { image?: ToolImage }).image?.width).toBe(1238);
  });

  it('a picture counts as the provider reads it (width × height / 750), not as its base64 characters', () => {
    const big = result('c9', image(1238, 928, 'A'.repeat(400_000)));
    const text = estimateMessageTokens({
      role: 'tool',
      tool_call_id: 'c9',
      content: 'took the "after" screenshot c9',
    });
    expect(estimateMessageTokens(big)).toBe(text + Math.ceil((1238 * 928) / 750));
  });

  it('Chat Completions with a model that reads pictures: text tool results, then one user message with the caption and the data URL; an elided picture leaves its note', () => {
    const body = chatRequestBody(
      'deepseek-v4-flash-vision-exp',
      { provider: 'deepseek', thinking: 'disabled' },
      req(view),
    );
    expect(body.messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: (transcript[1] as { tool_calls: unknown }).tool_calls },
      { role: 'tool', tool_call_id: 'c1', content: 'took the "after" screenshot c1' },
      { role: 'user', content: [{ type: 'text', text: ELIDED }] },
      { role: 'assistant', content: null, tool_calls: (transcript[3] as { tool_calls: unknown }).tool_calls },
      { role: 'tool', tool_call_id: 'c2', content: 'took the "after" screenshot c2' },
      {
        role: 'user',
        content: [
          { type: 'text', text: CAPTION(400, 300) },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${ONE}` } },
        ],
      },
    ]);
  });

  it('Chat Completions with a text-only model: the tool results exactly as before, no picture and no note', () => {
    for (const [provider, model] of [
      ['deepseek', 'deepseek-flash'],
      ['openai', 'gpt-3.5-turbo'],
      ['compatible', 'llama-3'],
    ] as const) {
      const body = chatRequestBody(model, { provider, thinking: 'disabled' }, req(view));
      expect(body.messages.filter((m) => m.role === 'tool' || m.role === 'user')).toEqual([
        { role: 'user', content: 'Ticket T1: look at the page' },
        { role: 'tool', tool_call_id: 'c1', content: 'took the "after" screenshot c1' },
        { role: 'tool', tool_call_id: 'c2', content: 'took the "after" screenshot c2' },
      ]);
    }
  });

  it('which models read pictures: Anthropic always (its own client), DeepSeek’s vision model, OpenAI’s GPT-4o/4.1/5 and o-series', () => {
    expect(acceptsImages('deepseek', 'deepseek-v4-flash-vision-exp')).toBe(true);
    expect(acceptsImages('deepseek', 'deepseek-flash')).toBe(false);
    expect(acceptsImages('deepseek', 'deepseek-v4-pro')).toBe(false);
    for (const m of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-5', 'gpt-5-mini', 'o3', 'o4-mini'])
      expect(acceptsImages('openai', m), m).toBe(true);
    for (const m of ['gpt-3.5-turbo', 'gpt-4', 'o1x']) expect(acceptsImages('openai', m), m).toBe(false);
    expect(acceptsImages('compatible', 'gpt-4o')).toBe(false);
  });

  it('Anthropic: the picture inside its tool_result after the text; an elided picture leaves its note there', () => {
    const params = toAnthropicParams(req(view), 'claude-haiku-4-5', 1024);
    const results = params.messages.flatMap((m) =>
      typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result'),
    );
    expect(results.map((b) => (b.type === 'tool_result' ? b.content : undefined))).toEqual([
      [
        { type: 'text', text: 'took the "after" screenshot c1' },
        { type: 'text', text: ELIDED },
      ],
      [
        { type: 'text', text: 'took the "after" screenshot c2' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: ONE } },
      ],
    ]);
  });
});
