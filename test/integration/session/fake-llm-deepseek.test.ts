import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';
import { MISSING_REASONING } from '../../kit/fake-llm-deepseek.ts';

const post = (url: string, body: unknown) =>
  fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const call = { id: 'call_1', type: 'function', function: { name: 'note', arguments: '{}' } };
/** A history whose assistant message called a tool, with `extra` on that message. */
const history = (extra: Record<string, unknown>) => [
  { role: 'user', content: 'first' },
  { role: 'assistant', content: null, tool_calls: [call], ...extra },
  { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
];

describe('the fake model enforces DeepSeek’s documented rules (issue 12, R-H1)', () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm({ handler: () => text('fine') });
  });
  afterAll(async () => {
    await llm.close();
  });

  it('a retired model name answers 400 "Model Not Exist" in DeepSeek’s error shape', async () => {
    for (const model of ['deepseek-chat', 'deepseek-reasoner', 'gpt-4o']) {
      const res = await post(llm.baseURL, { model, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          message: 'Model Not Exist',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      });
    }
    const ok = await post(llm.baseURL, {
      model: 'deepseek-flash',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ok.status).toBe(200);
  });

  it('thinking on: an assistant tool call without reasoning_content answers 400 with DeepSeek’s message', async () => {
    const missing = await post(llm.baseURL, { model: 'deepseek-flash', messages: history({}) });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({
      message: MISSING_REASONING,
      type: 'invalid_request_error',
    });
    // Explicitly enabled is the same; a null is as good as absent.
    const nul = await post(llm.baseURL, {
      model: 'deepseek-flash',
      thinking: { type: 'enabled' },
      messages: history({ reasoning_content: null }),
    });
    expect(nul.status).toBe(400);
    // An empty string is none (issue 28: reported refused by deepseek-v4-pro); one space passes.
    const empty = await post(llm.baseURL, {
      model: 'deepseek-flash',
      messages: history({ reasoning_content: '' }),
    });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.message).toBe(MISSING_REASONING);
    for (const reasoning_content of ['because', ' ']) {
      const res = await post(llm.baseURL, {
        model: 'deepseek-flash',
        messages: history({ reasoning_content }),
      });
      expect(res.status).toBe(200);
    }
    const off = await post(llm.baseURL, {
      model: 'deepseek-flash',
      thinking: { type: 'disabled' },
      messages: history({}),
    });
    expect(off.status).toBe(200);
  });

  it('thinking switched per request: a tool call answered with thinking off needs reasoning once it is back on', async () => {
    // The acknowledgement's request (issue 28): thinking off, no reasoning in the answer.
    llm.push(toolCalls(['note', {}]));
    const ack = await (
      await post(llm.baseURL, {
        model: 'deepseek-flash',
        thinking: { type: 'disabled' },
        messages: [{ role: 'user', content: 'first' }],
      })
    ).json();
    const answered = ack.choices[0].message;
    expect(answered).not.toHaveProperty('reasoning_content');
    const next = (extra: Record<string, unknown>) => [
      { role: 'user', content: 'first' },
      { ...answered, ...extra },
      { role: 'tool', tool_call_id: answered.tool_calls[0].id, content: 'ok' },
    ];
    const bare = await post(llm.baseURL, { model: 'deepseek-flash', messages: next({}) });
    expect(bare.status).toBe(400);
    const padded = await post(llm.baseURL, {
      model: 'deepseek-flash',
      thinking: { type: 'enabled' },
      messages: next({ reasoning_content: ' ' }),
    });
    expect(padded.status).toBe(200);
  });

  it('thinking on: answers carry reasoning_content, streamed and not; off: none', async () => {
    llm.push(text('a'), text('b'), text('c'));
    const plain = await (await post(llm.baseURL, { model: 'deepseek-flash', messages: [] })).json();
    expect(plain.choices[0].message.reasoning_content).toMatch(/\S/);
    const off = await (
      await post(llm.baseURL, { model: 'deepseek-flash', thinking: { type: 'disabled' }, messages: [] })
    ).json();
    expect(off.choices[0].message).not.toHaveProperty('reasoning_content');
    const stream = await post(llm.baseURL, { model: 'deepseek-flash', stream: true, messages: [] });
    const chunks = (await stream.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice('data: '.length)));
    const reasoning = chunks.map((c) => c.choices[0]?.delta?.reasoning_content ?? '').join('');
    expect(reasoning).toMatch(/\S/);
  });

  it('sampling fields with thinking on are ignored, as the docs say, and recorded as ignored', async () => {
    const res = await post(llm.baseURL, {
      model: 'deepseek-flash',
      temperature: 0.2,
      top_p: 0.9,
      messages: [],
    });
    expect(res.status).toBe(200);
    expect(llm.requests.at(-1)?.ignored).toEqual(['temperature', 'top_p']);
    await post(llm.baseURL, {
      model: 'deepseek-flash',
      thinking: { type: 'disabled' },
      temperature: 0.2,
      messages: [],
    });
    expect(llm.requests.at(-1)?.ignored).toEqual([]);
  });

  it('cache hits are the prefix shared with the previous request of the same conversation', async () => {
    const opening = { role: 'user', content: `cache test ${'x'.repeat(400)}` };
    const first = await (await post(llm.baseURL, { model: 'deepseek-flash', messages: [opening] })).json();
    expect(first.usage.prompt_cache_hit_tokens).toBe(0);
    expect(first.usage.prompt_cache_miss_tokens).toBe(first.usage.prompt_tokens);
    const longer = [opening, { role: 'assistant', content: 'sure' }, { role: 'user', content: 'more' }];
    const second = await (await post(llm.baseURL, { model: 'deepseek-flash', messages: longer })).json();
    expect(second.usage.prompt_tokens).toBeGreaterThan(first.usage.prompt_tokens);
    expect(second.usage.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(first.usage.prompt_tokens - 1);
    expect(second.usage.prompt_cache_hit_tokens + second.usage.prompt_cache_miss_tokens).toBe(
      second.usage.prompt_tokens,
    );
    // Another conversation (another first message) has nothing cached yet.
    const edited = [{ role: 'user', content: `cache test ${'y'.repeat(400)}` }, ...longer.slice(1)];
    const other = await (await post(llm.baseURL, { model: 'deepseek-flash', messages: edited })).json();
    expect(other.usage.prompt_cache_hit_tokens).toBe(0);
  });
});

describe('the fake model as OpenAI', () => {
  it('refuses DeepSeek’s thinking field and reports cache hits in prompt_tokens_details', async () => {
    const llm = await startFakeLlm({ dialect: 'openai', handler: () => toolCalls(['note', {}]) });
    try {
      const res = await post(llm.baseURL, { model: 'gpt-4.1', thinking: { type: 'enabled' }, messages: [] });
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toBe('Unrecognized request argument supplied: thinking');
      const messages = [{ role: 'user', content: 'y'.repeat(200) }];
      await post(llm.baseURL, { model: 'gpt-4.1', messages });
      const again = await (await post(llm.baseURL, { model: 'gpt-4.1', messages })).json();
      expect(again.choices[0].message).not.toHaveProperty('reasoning_content');
      expect(again.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(40);
    } finally {
      await llm.close();
    }
  });
});
