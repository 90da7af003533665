import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { text } from '../../kit/fake-llm.ts';

const fake = await startFakeAnthropic({ handler: () => text('ok') });
afterAll(() => fake.close());

const HEADERS = {
  'content-type': 'application/json',
  'x-api-key': 'test-key',
  'anthropic-version': '2023-06-01',
};
const user = (content: unknown) => ({ role: 'user', content });
const ok = { model: 'claude-haiku-4-5', max_tokens: 100, messages: [user('hi')] };

async function post(body: unknown, headers: Record<string, string> = HEADERS) {
  const res = await fetch(`${fake.baseURL}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const refusal = (status: number, type: string, message: RegExp) => ({
  status,
  body: { type: 'error', error: { type, message: expect.stringMatching(message) } },
});

describe('the fake Anthropic Messages API refuses what the real one refuses', () => {
  it('answers a well-formed request with a message and usage', async () => {
    const r = await post(ok);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
    });
    expect(r.body.usage).toMatchObject({ cache_read_input_tokens: 0, output_tokens: 5 });
  });

  it('needs the key and anthropic-version headers', async () => {
    const { 'x-api-key': _k, ...noKey } = HEADERS;
    const { 'anthropic-version': _v, ...noVersion } = HEADERS;
    expect(await post(ok, noKey)).toMatchObject(refusal(401, 'authentication_error', /x-api-key/));
    expect(await post(ok, { ...HEADERS, 'x-api-key': 'nope' })).toMatchObject(
      refusal(401, 'authentication_error', /invalid/),
    );
    expect(await post(ok, noVersion)).toMatchObject(
      refusal(400, 'invalid_request_error', /anthropic-version/),
    );
  });

  it('needs max_tokens and a model it serves (404 not_found_error otherwise)', async () => {
    const { max_tokens: _m, ...noMax } = ok;
    expect(await post(noMax)).toMatchObject(
      refusal(400, 'invalid_request_error', /^max_tokens: Field required/),
    );
    expect(await post({ ...ok, model: 'claude-2.1' })).toMatchObject(
      refusal(404, 'not_found_error', /^model: claude-2\.1$/),
    );
    // Retired on 2026-11-30 (the SDK's deprecation table): refused like any retired name.
    expect(await post({ ...ok, model: 'claude-sonnet-4-5' })).toMatchObject(
      refusal(404, 'not_found_error', /^model: claude-sonnet-4-5$/),
    );
  });

  it('wants alternating roles and every tool_use answered at the start of the next user message', async () => {
    const call = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'note', input: {} }],
    };
    const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' };
    expect(await post({ ...ok, messages: [user('a'), user('b')] })).toMatchObject(
      refusal(400, 'invalid_request_error', /roles must alternate/),
    );
    expect(await post({ ...ok, messages: [user('a'), call, user('b')] })).toMatchObject(
      refusal(
        400,
        'invalid_request_error',
        /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
      ),
    );
    expect(
      await post({ ...ok, messages: [user('a'), call, user([{ type: 'text', text: 'x' }, result])] }),
    ).toMatchObject(refusal(400, 'invalid_request_error', /tool_result/));
    expect(await post({ ...ok, messages: [user('a'), user([result])].slice(1) })).toMatchObject(
      refusal(400, 'invalid_request_error', /unexpected `tool_use_id`/),
    );
    expect((await post({ ...ok, messages: [user('a'), call, user([result])] })).status).toBe(200);
  });

  it('allows at most 4 cache_control breakpoints and tool names of the documented pattern', async () => {
    const cached = (t: string) => ({ type: 'text', text: t, cache_control: { type: 'ephemeral' } });
    const five = {
      ...ok,
      system: [cached('s1'), cached('s2')],
      messages: [user([cached('a'), cached('b'), cached('c')])],
    };
    expect(await post(five)).toMatchObject(
      refusal(
        400,
        'invalid_request_error',
        /A maximum of 4 blocks with cache_control may be provided\. Found 5\./,
      ),
    );
    const tool = { name: 'read.file', input_schema: { type: 'object' } };
    expect(await post({ ...ok, tools: [tool] })).toMatchObject(
      refusal(400, 'invalid_request_error', /^tools\.0\.custom\.name: String should match pattern/),
    );
  });

  it('thinking: the forms each model takes, and thinking blocks sent back unmodified', async () => {
    expect(
      await post({ ...ok, model: 'claude-sonnet-5', thinking: { type: 'enabled', budget_tokens: 2048 } }),
    ).toMatchObject(
      refusal(400, 'invalid_request_error', /"thinking\.type\.enabled" is not supported for this model/),
    );
    expect(await post({ ...ok, thinking: { type: 'enabled', budget_tokens: 100 } })).toMatchObject(
      refusal(400, 'invalid_request_error', /budget_tokens: Input should be greater than or equal to 1024/),
    );
    expect(await post({ ...ok, thinking: { type: 'enabled', budget_tokens: 2048 } })).toMatchObject(
      refusal(400, 'invalid_request_error', /`max_tokens` must be greater than `thinking\.budget_tokens`/),
    );
    const first = await post({ ...ok, model: 'claude-sonnet-5', max_tokens: 4096 });
    const [thinking] = first.body.content as Record<string, unknown>[];
    expect(thinking).toMatchObject({ type: 'thinking', signature: expect.any(String) });
    const back = (block: unknown) => ({
      ...ok,
      model: 'claude-sonnet-5',
      messages: [
        user('hi'),
        { role: 'assistant', content: [block, { type: 'text', text: 'ok' }] },
        user('more'),
      ],
    });
    expect((await post(back(thinking))).status).toBe(200);
    expect(
      await post(back({ ...thinking, thinking: `${String(thinking?.thinking)} (edited)` })),
    ).toMatchObject(
      refusal(
        400,
        'invalid_request_error',
        /^messages\.1\.content\.0: Invalid `signature` in `thinking` block/,
      ),
    );
  });
});
