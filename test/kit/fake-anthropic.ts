import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CacheUsage, createPromptCache, promptTokens } from './fake-anthropic-cache.ts';
import { type AnthropicErrorType, checkBody, checkHeaders, type Refusal } from './fake-anthropic-rules.ts';
import { checkThinkingBlocks, MODEL_THINKING, signThinking, thinkingOf } from './fake-anthropic-thinking.ts';
import type { FakeHandler, FakeLlm, FakeReply, RecordedMessage, RecordedRequest } from './fake-llm.ts';

/**
 * Anthropic's Messages API on loopback: `POST /v1/messages`, streaming (SSE events) or not. It
 * refuses what the real API refuses (`fake-anthropic-rules.ts`) with the real error shape
 * `{ type: 'error', error: { type, message } }`, and reports prompt-cache usage from a model of
 * the real cache (`fake-anthropic-cache.ts`). Scripts are the Chat Completions fake's: each
 * request is also recorded in that shape (`requests`), so `scriptedModel`, `executorFlow` and
 * friends drive it unchanged; `raw` keeps what arrived on the wire.
 */
export interface FakeAnthropic extends FakeLlm {
  /** Each request as it arrived: its headers and Messages API body. */
  raw: { headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> }[];
  /** The usage reported for each answered request, oldest first. */
  usages: (CacheUsage & { output_tokens: number })[];
  /** Every refusal sent, oldest first (a test asserts there were none). */
  refusals: Refusal[];
}

export interface FakeAnthropicOptions {
  apiKey?: string;
  /** Model names it serves; any other answers 404 `not_found_error` like a retired model. */
  models?: string[];
  /** Smallest cacheable prefix in (estimated) tokens; the docs give 1024 for Sonnet models. */
  minCacheTokens?: number;
  handler?: FakeHandler;
  /**
   * The context window in (estimated) tokens: a longer prompt is refused with the API's 400
   * "prompt is too long: N tokens > M maximum"; undefined: none.
   */
  contextWindow?: number;
}

export const FAKE_ANTHROPIC_MODELS = Object.keys(MODEL_THINKING);

let seq = 0;

export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const apiKey = opts.apiKey ?? 'test-key';
  const models = new Set(opts.models ?? FAKE_ANTHROPIC_MODELS);
  const cache = createPromptCache(opts.minCacheTokens ?? 1024);
  const queue: FakeReply[] = [];
  let handler = opts.handler;
  /** Tool calls the fake made in a turn that thought: continuing them needs that thinking back. */
  const thoughtful = new Set<string>();
  const fake = {
    requests: [] as RecordedRequest[],
    raw: [] as FakeAnthropic['raw'],
    usages: [] as FakeAnthropic['usages'],
    refusals: [] as Refusal[],
  };
  const refuse = (res: ServerResponse, r: Refusal) => {
    fake.refusals.push(r);
    sendError(res, r.status, r.type, r.message);
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages')
      return sendError(res, 404, 'not_found_error', `Not Found: ${req.method} ${path}`);
    const headerRefusal = checkHeaders(req.headers, apiKey);
    if (headerRefusal) return refuse(res, headerRefusal);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return refuse(res, {
        status: 400,
        type: 'invalid_request_error',
        message: 'The request body is not valid JSON',
      });
    }
    fake.raw.push({ headers: req.headers, body });
    const bodyRefusal = checkBody(body, models);
    if (bodyRefusal) return refuse(res, bodyRefusal);
    const thinking = thinkingOf(body, MODEL_THINKING[String(body.model)] ?? 'budget');
    if (!('on' in thinking)) return refuse(res, thinking);
    const blocksRefusal = checkThinkingBlocks(
      body.messages as Parameters<typeof checkThinkingBlocks>[0],
      thoughtful,
    );
    if (blocksRefusal) return refuse(res, blocksRefusal);
    const used = promptTokens(body);
    if (opts.contextWindow !== undefined && used > opts.contextWindow)
      return refuse(res, {
        status: 400,
        type: 'invalid_request_error',
        message: `prompt is too long: ${used} tokens > ${opts.contextWindow} maximum`,
      });
    const recorded = recordedOf(req, body);
    fake.requests.push(recorded);
    const reply = queue.shift() ?? (handler ? await handler(recorded) : undefined);
    if (!reply) return sendError(res, 500, 'api_error', 'fake-anthropic: no scripted reply left');
    if (reply.type === 'error')
      return sendError(res, reply.status, errorType(reply.status), reply.message, reply.retryAfterSeconds);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    const usage = { ...cache.use(body), output_tokens: reply.usage?.completion_tokens ?? 5 };
    fake.usages.push(usage);
    const thought = thinking.on
      ? (reply.reasoning ?? `Thinking about request ${fake.requests.length}.`)
      : undefined;
    const message = messageOf(String(body.model), reply, usage, thought);
    for (const b of thought === undefined ? [] : message.content)
      if (b.type === 'tool_use') thoughtful.add(String(b.id));
    if (body.stream === true) return sendStream(res, message);
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${++seq}` });
    res.end(JSON.stringify(message));
  }

  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => sendError(res, 500, 'api_error', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    baseURL: `http://127.0.0.1:${port}`,
    push: (...replies) => void queue.push(...replies),
    respond: (h) => {
      handler = h;
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function errorType(status: number): AnthropicErrorType {
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status === 401) return 'authentication_error';
  if (status === 404) return 'not_found_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

type Block = Record<string, unknown>;

/** The request in the Chat Completions shape the shared scripts read. */
function recordedOf(req: IncomingMessage, body: Record<string, unknown>): RecordedRequest {
  const messages: RecordedMessage[] = [];
  for (const m of body.messages as { role: string; content: string | Block[] }[]) {
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const text = blocks.filter((b) => b.type === 'text').map((b) => String(b.text));
    if (m.role === 'assistant') {
      const calls = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({
          id: String(b.id),
          type: 'function',
          function: { name: String(b.name), arguments: JSON.stringify(b.input) },
        }));
      messages.push({
        role: 'assistant',
        content: text.join('') || null,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      continue;
    }
    for (const b of blocks.filter((x) => x.type === 'tool_result'))
      messages.push({ role: 'tool', tool_call_id: String(b.tool_use_id), content: resultText(b.content) });
    if (text.length) messages.push({ role: 'user', content: text.join('\n') });
  }
  const system =
    typeof body.system === 'string'
      ? body.system
      : ((body.system ?? []) as Block[]).map((b) => String(b.text)).join('\n');
  return {
    path: '/v1/messages',
    authorization: (req.headers['x-api-key'] as string | undefined) ?? req.headers.authorization,
    model: String(body.model),
    stream: body.stream === true,
    messages,
    tools: ((body.tools ?? []) as Block[]).map((t) => ({
      type: 'function',
      function: {
        name: String(t.name),
        description: String(t.description ?? ''),
        parameters: t.input_schema as Record<string, unknown>,
      },
    })),
    system: system || undefined,
    body,
  };
}

const resultText = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? (c as Block[])
          .filter((b) => b.type === 'text')
          .map((b) => String(b.text ?? ''))
          .join('\n')
      : '';

type MessageReply = Extract<FakeReply, { type: 'message' }>;

function messageOf(
  model: string,
  reply: MessageReply,
  usage: FakeAnthropic['usages'][number],
  thought?: string,
) {
  const content: Block[] = [];
  if (thought !== undefined)
    content.push({ type: 'thinking', thinking: thought, signature: signThinking(thought) });
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const c of reply.toolCalls ?? []) {
    const input = typeof c.arguments === 'string' ? JSON.parse(c.arguments) : (c.arguments ?? {});
    content.push({
      type: 'tool_use',
      id: c.id ?? `toolu_${String(++seq).padStart(6, '0')}`,
      name: c.name,
      input,
    });
  }
  const stop = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  return {
    id: `msg_${++seq}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
}

/** The event sequence the API streams: message_start, per block start/deltas/stop, message_delta, message_stop. */
function sendStream(res: ServerResponse, message: ReturnType<typeof messageOf>): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': `req_${++seq}`,
  });
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const { content, usage, stop_reason, ...head } = message;
  event('message_start', {
    message: { ...head, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  event('ping', {});
  content.forEach((b, index) => {
    if (b.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of split(String(b.text)))
        event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else if (b.type === 'thinking') {
      event('content_block_start', {
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const piece of split(String(b.thinking)))
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
      event('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } });
    } else {
      event('content_block_start', { index, content_block: { ...b, input: {} } });
      for (const piece of split(JSON.stringify(b.input)))
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', {
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event('message_stop', {});
  res.end();
}

function split(s: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendError(
  res: ServerResponse,
  status: number,
  type: AnthropicErrorType,
  message?: string,
  retryAfterSeconds?: number,
): void {
  if (res.headersSent) return void res.end();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'request-id': `req_${++seq}`,
  };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
  res.writeHead(status, headers);
  res.end(
    JSON.stringify({
      type: 'error',
      error: { type, message: message ?? `HTTP ${status}` },
      request_id: `req_${seq}`,
    }),
  );
}
