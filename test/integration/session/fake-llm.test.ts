import { describe, expect, it } from 'vitest';
import { failure, startFakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('fake LLM server', () => {
  it('answers at /chat/completions as well as /v1/chat/completions, queue first, then the handler', async () => {
    const llm = await startFakeLlm({ replies: [text('queued')], handler: () => text('handled') });
    try {
      const root = llm.baseURL.replace(/\/v1$/, '');
      const a = await (
        await post(`${root}/chat/completions`, { model: 'deepseek-flash', messages: [] })
      ).json();
      const b = await (
        await post(`${llm.baseURL}/chat/completions`, { model: 'deepseek-flash', messages: [] })
      ).json();
      expect(a.choices[0].message.content).toBe('queued');
      expect(b.choices[0].message.content).toBe('handled');
      // Usage as DeepSeek reports it; the prompt is counted from the request.
      const prompt = b.usage.prompt_tokens;
      expect(prompt).toBeGreaterThan(0);
      expect(b.usage).toEqual({
        prompt_tokens: prompt,
        completion_tokens: 5,
        total_tokens: prompt + 5,
        prompt_cache_hit_tokens: b.usage.prompt_cache_hit_tokens,
        prompt_cache_miss_tokens: prompt - b.usage.prompt_cache_hit_tokens,
      });
      expect(llm.requests.map((r) => r.path)).toEqual(['/chat/completions', '/v1/chat/completions']);
    } finally {
      await llm.close();
    }
  });

  it('streams tool-call deltas as SSE chunks ending with [DONE]', async () => {
    const llm = await startFakeLlm({
      replies: [toolCalls(['reply', { to: 'c1', text: 'hello there' }, 'call_x'])],
    });
    try {
      const res = await post(`${llm.baseURL}/chat/completions`, {
        model: 'deepseek-flash',
        messages: [],
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = (await res.text()).split('\n\n').filter(Boolean);
      expect(events.at(-1)).toBe('data: [DONE]');
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
      const args = chunks
        .flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
        .map((d: { function?: { arguments?: string } }) => d.function?.arguments ?? '')
        .join('');
      expect(JSON.parse(args)).toEqual({ to: 'c1', text: 'hello there' });
      expect(chunks.at(-1).usage.total_tokens).toBe(chunks.at(-1).usage.prompt_tokens + 5);
    } finally {
      await llm.close();
    }
  });

  it('answers scripted errors with the status and Retry-After asked for', async () => {
    const llm = await startFakeLlm({ replies: [failure(429, 3)] });
    try {
      const res = await post(`${llm.baseURL}/chat/completions`, { model: 'deepseek-flash', messages: [] });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('3');
      expect((await res.json()).error.type).toBe('rate_limit_error');
      const empty = await post(`${llm.baseURL}/chat/completions`, { model: 'deepseek-flash', messages: [] });
      expect(empty.status).toBe(500);
    } finally {
      await llm.close();
    }
  });
});
