import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRecordProxy } from '../../../src/eval/record-proxy.ts';
import { startReplayServer } from '../../../src/eval/replay-server.ts';
import type { Volatile } from '../../../src/eval/request-key.ts';
import { readExchanges } from '../../../src/eval/traffic-file.ts';
import { createAnthropicClient } from '../../../src/session/anthropic-client.ts';
import { createModelClient, type ModelRequest } from '../../../src/session/model-client.ts';
import { startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { type RecordedRequest, startFakeLlm, toolCalls } from '../../kit/fake-llm.ts';

/**
 * Issue 29 `--record` / `--replay` at the wire: the product's own model clients (Chat Completions
 * streamed, Anthropic's Messages API) through the recorder to a real loopback model, then through
 * the replay server with that model gone. The fake streams tool-call arguments in 8-character
 * pieces, as providers do, so a card id is split across deltas.
 */

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-traffic-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const CARD_A = 'github-0123456789abcdef0123';
const CARD_B = 'github-fedcba9876543210fedc';

/** One request as the executor sends it: a card naming a file in the run's folder. */
const request = (card: string, runDir: string, extra = ''): ModelRequest => ({
  system: 'You are an executor.',
  messages: [
    {
      role: 'user',
      content: `<card id="${card}" source="github" kind="issue">fix ${runDir}/a.js${extra}</card>`,
    },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'reply',
        description: 'Reply to a card.',
        parameters: { type: 'object', properties: { to: { type: 'string' }, text: { type: 'string' } } },
      },
    },
  ],
});

/** The model answers `reply` to the card it read, quoting the file's path. */
function replyToCard(r: RecordedRequest) {
  const text = String(r.messages.at(-1)?.content ?? '');
  const card = /card id="([^"]+)"/.exec(text)?.[1] ?? 'none';
  const path = /fix (\S+)</.exec(text)?.[1] ?? 'none';
  return toolCalls(['reply', { to: card, text: `Looking at ${path}` }]);
}

const runVolatile = (dir: string): Volatile[] => [{ value: dir, name: 'run-dir' }];

describe('eval record and replay at the wire (issue 29)', () => {
  it('records a streamed answer chunk by chunk and replays it without the model, with this run’s ids put back where the recording’s stood', async () => {
    const llm = await startFakeLlm({ dialect: 'openai', handler: replyToCard });
    closers.push(() => llm.close());
    const dir = tempDir();
    const proxy = await startRecordProxy({
      upstream: llm.baseURL,
      dir,
      label: 'task-1',
      volatile: () => runVolatile('/tmp/run-aaa'),
    });
    closers.push(() => proxy.close());
    const client = (baseURL: string) =>
      createModelClient({
        baseURL,
        apiKey: 'sk-secret-key',
        model: 'gpt-test',
        stream: true,
        contract: { provider: 'openai' },
      });
    const recorded = await client(proxy.baseURL).complete(request(CARD_A, '/tmp/run-aaa'));
    expect(recorded.message.tool_calls?.[0]?.function.arguments).toBe(
      JSON.stringify({ to: CARD_A, text: 'Looking at /tmp/run-aaa/a.js' }),
    );
    const [exchange] = readExchanges(dir, 'task-1');
    if (!exchange) throw new Error('nothing recorded');
    expect(exchange.response).toMatchObject({
      status: 200,
      contentType: 'text/event-stream',
      complete: true,
    });
    expect(exchange.response.chunks.join('')).toContain('data: [DONE]');
    // The request is kept in its canonical form; the key, which travels in a header, nowhere.
    expect(JSON.stringify(exchange.request)).toContain('<card-1>');
    expect(JSON.stringify(exchange.request)).toContain('<run-dir>/a.js');
    expect(exchange.bindings).toMatchObject({ '<card-1>': CARD_A, '<run-dir>': '/tmp/run-aaa' });
    for (const f of readdirSync(join(dir, 'exchanges')))
      expect(readFileSync(join(dir, 'exchanges', f), 'utf8')).not.toContain('sk-secret-key');
    await proxy.close();
    await llm.close();

    const replay = await startReplayServer({
      dir,
      label: 'task-1',
      basePath: '/v1',
      volatile: () => runVolatile('/tmp/run-bbb'),
    });
    closers.push(() => replay.close());
    const replayed = await client(replay.baseURL).complete(request(CARD_B, '/tmp/run-bbb'));
    // The id was streamed in pieces; the answer names this run's card and folder whole.
    expect(replayed.message.tool_calls?.[0]?.function.arguments).toBe(
      JSON.stringify({ to: CARD_B, text: 'Looking at /tmp/run-bbb/a.js' }),
    );
    expect(replayed.usage).toEqual(recorded.usage);
    expect(replay.firstMiss()).toBeNull();
    expect(replay.unasked()).toEqual([]);
  });

  it('replays the recorded bytes unchanged when nothing the run made up differs', async () => {
    const llm = await startFakeLlm({ dialect: 'openai', handler: replyToCard });
    closers.push(() => llm.close());
    const dir = tempDir();
    const proxy = await startRecordProxy({ upstream: llm.baseURL, dir, label: 't-1', volatile: () => [] });
    closers.push(() => proxy.close());
    const body = JSON.stringify({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: `<card id="${CARD_A}">hi</card>` }],
      tools: request(CARD_A, '/x').tools,
    });
    const post = (base: string) =>
      fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const original = await (await post(proxy.baseURL)).text();
    await llm.close();
    const replay = await startReplayServer({ dir, label: 't-1', basePath: '/v1', volatile: () => [] });
    closers.push(() => replay.close());
    const again = await post(replay.baseURL);
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    expect(await again.text()).toBe(original);
    expect(original.split('\n\n').length).toBeGreaterThan(5);
  });

  it('refuses a request the recording does not hold with a 400, naming the first field that differs', async () => {
    const llm = await startFakeLlm({ dialect: 'openai', handler: replyToCard });
    closers.push(() => llm.close());
    const dir = tempDir();
    const proxy = await startRecordProxy({ upstream: llm.baseURL, dir, label: 't-1', volatile: () => [] });
    closers.push(() => proxy.close());
    const client = (baseURL: string) =>
      createModelClient({
        baseURL,
        apiKey: 'k',
        model: 'gpt-test',
        stream: true,
        contract: { provider: 'openai' },
      });
    await client(proxy.baseURL).complete(request(CARD_A, '/r'));
    const replay = await startReplayServer({ dir, label: 't-1', basePath: '/v1', volatile: () => [] });
    closers.push(() => replay.close());
    const changed = client(replay.baseURL).complete(request(CARD_A, '/r', ' and b.js'));
    await expect(changed).rejects.toMatchObject({ status: 400 });
    await expect(changed).rejects.toThrow(
      /request 1 is not in the recording t-1: .*body\.messages\[1\]\.content/,
    );
    expect(replay.firstMiss()).toMatchObject({ request: 1, nearest: 1 });
    expect(replay.firstMiss()?.difference).toMatch(
      /^against recorded request 1: body\.messages\[1\]\.content: recorded ".*a\.js<\/card>", now ".*a\.js and b\.js<\/card>"$/,
    );
    expect(replay.unasked()).toEqual([1]);
  });

  it('records and replays Anthropic’s Messages API the same way', async () => {
    const fake = await startFakeAnthropic({ handler: replyToCard });
    closers.push(() => fake.close());
    const dir = tempDir();
    const proxy = await startRecordProxy({
      upstream: fake.baseURL,
      dir,
      label: 'a-1',
      volatile: () => runVolatile('/tmp/run-aaa'),
    });
    closers.push(() => proxy.close());
    const client = (baseURL: string, apiKey: string) =>
      createAnthropicClient({ baseURL, apiKey, model: 'claude-haiku-4-5', maxTokens: 1024 });
    const recorded = await client(proxy.baseURL, 'test-key').complete(request(CARD_A, '/tmp/run-aaa'));
    expect(JSON.parse(recorded.message.tool_calls?.[0]?.function.arguments ?? '{}')).toEqual({
      to: CARD_A,
      text: 'Looking at /tmp/run-aaa/a.js',
    });
    expect(readExchanges(dir, 'a-1')[0]?.request.path).toBe('/v1/messages');
    await fake.close();
    const replay = await startReplayServer({
      dir,
      label: 'a-1',
      basePath: '',
      volatile: () => runVolatile('/tmp/run-bbb'),
    });
    closers.push(() => replay.close());
    const replayed = await client(replay.baseURL, 'replay').complete(request(CARD_B, '/tmp/run-bbb'));
    expect(JSON.parse(replayed.message.tool_calls?.[0]?.function.arguments ?? '{}')).toEqual({
      to: CARD_B,
      text: 'Looking at /tmp/run-bbb/a.js',
    });
    expect(replayed.usage).toEqual(recorded.usage);
    expect(replay.firstMiss()).toBeNull();
  });
});
