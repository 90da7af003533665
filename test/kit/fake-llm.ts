import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { capAnswer } from './fake-llm-cap.ts';
import { deepseekDialect } from './fake-llm-deepseek.ts';
import type { FakeDialectRules } from './fake-llm-dialect.ts';
import { openaiDialect } from './fake-llm-openai.ts';
import type { FakeReply, FakeUsage } from './fake-llm-reply.ts';
import type { RecordedMessage, RecordedRequest, RecordedTool } from './fake-llm-request.ts';
import { type FakeWindow, windowRefusal } from './fake-llm-window.ts';

export type { FakeReply, FakeToolCall, FakeUsage } from './fake-llm-reply.ts';
export type { RecordedMessage, RecordedRequest, RecordedTool } from './fake-llm-request.ts';

/**
 * A scripted OpenAI Chat Completions server on loopback (ARCHITECTURE: "tests run the real client
 * against a local scripted server"). It answers `POST /v1/chat/completions` and
 * `POST /chat/completions`, streaming (SSE) or not, and records every request. It speaks DeepSeek
 * by default, the product's default provider, and refuses what DeepSeek refuses
 * (`fake-llm-deepseek.ts`); `dialect: 'openai'` makes it OpenAI (`fake-llm-openai.ts`).
 */

export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** A plain text answer (the model ends its turn). */
export const text = (t: string, usage?: Partial<FakeUsage>): FakeReply => ({
  type: 'message',
  text: t,
  ...(usage ? { usage } : {}),
});

/** An answer that calls tools: `toolCalls(['reply', { to: 'c1', text: 'hi' }], ...)`. */
export const toolCalls = (...calls: [name: string, args: unknown, id?: string][]): FakeReply => ({
  type: 'message',
  toolCalls: calls.map(([name, args, id]) => ({ name, arguments: args, ...(id ? { id } : {}) })),
});

/** An HTTP error answer (500, 429 with `Retry-After`, ...). */
export const failure = (status: number, retryAfterSeconds?: number): FakeReply => ({
  type: 'error',
  status,
  ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
});

export interface FakeLlm {
  /** Base URL for the `openai` client (`…/v1`). */
  baseURL: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** Queue replies; they are used before the handler. */
  push(...replies: FakeReply[]): void;
  /** Answer with this function once the queue is empty. */
  respond(handler: FakeHandler): void;
  /** Replies still queued. */
  pending(): number;
  close(): Promise<void>;
}

/** The Chat Completions fake: a `FakeLlm` with a context window. */
export interface FakeChatLlm extends FakeLlm {
  /** The context window (R-H2): a longer request is refused with the provider's 400; undefined: none. */
  setContextWindow(window: FakeWindow | undefined): void;
}

let callSeq = 0;

/** Which provider the fake model is: its refusals, reasoning and usage fields. */
export type FakeDialect = 'deepseek' | 'openai';

/** Starts the fake model on 127.0.0.1 at a free port. */
export async function startFakeLlm(
  opts: {
    replies?: FakeReply[];
    handler?: FakeHandler;
    dialect?: FakeDialect;
    contextWindow?: FakeWindow;
  } = {},
): Promise<FakeChatLlm> {
  const dialect: FakeDialectRules = opts.dialect === 'openai' ? openaiDialect() : deepseekDialect();
  const queue: FakeReply[] = [...(opts.replies ?? [])];
  let contextWindow = opts.contextWindow;
  let handler = opts.handler;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => sendError(res, 500, String(err)));
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !['/v1/chat/completions', '/chat/completions'].includes(path)) {
      return sendError(res, 404, `fake-llm: no route ${req.method} ${path}`);
    }
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    const recorded = record(path, req, body);
    recorded.ignored = dialect.ignored(recorded);
    requests.push(recorded);
    // The provider's refusals come first: a scripted reply never rescues a request it would refuse.
    const refusal = dialect.refuse(recorded);
    if (refusal) return sendJson(res, refusal.status, refusal.body);
    // Past the context window (R-H2): the provider's context-length 400.
    const tooLong = windowRefusal(recorded, contextWindow);
    if (tooLong) return sendJson(res, 400, tooLong);
    const reply = queue.shift() ?? (handler ? await handler(recorded) : undefined);
    if (!reply) return sendError(res, 500, 'fake-llm: no scripted reply left');
    if (reply.type === 'error') return sendError(res, reply.status, reply.message, reply.retryAfterSeconds);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    // Issue 28: the answer as the request's `max_tokens` lets it out.
    const capped = capAnswer(reply, recorded, dialect.reasoning(recorded, reply.reasoning));
    const answer: Answer = {
      reply: capped.reply,
      finish: capped.finish,
      reasoning: capped.reasoning,
      usage: dialect.usage(recorded, reply.usage),
    };
    recorded.usage = answer.usage;
    if (recorded.stream) await sendStream(res, recorded, answer);
    else {
      if (reply.streamMs) await new Promise((r) => setTimeout(r, reply.streamMs));
      sendJson(res, 200, completion(recorded, answer));
    }
    recorded.answeredAt = Date.now();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...replies) => void queue.push(...replies),
    respond: (h) => {
      handler = h;
    },
    pending: () => queue.length,
    setContextWindow: (w) => {
      contextWindow = w;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function record(path: string, req: IncomingMessage, body: Record<string, unknown>): RecordedRequest {
  const messages = ((body.messages ?? []) as RecordedMessage[]).map(flatten);
  const system = messages.find((m) => m.role === 'system')?.content ?? undefined;
  return {
    path,
    authorization: req.headers.authorization,
    model: String(body.model ?? ''),
    stream: body.stream === true,
    messages,
    tools: (body.tools ?? []) as RecordedTool[],
    system: system ?? undefined,
    body,
    ignored: [],
    receivedAt: Date.now(),
  };
}

/** A message sent as content parts keeps them in `parts` and its text in `content`, for scripts. */
function flatten(m: RecordedMessage): RecordedMessage {
  if (!Array.isArray(m.content)) return m;
  const parts = m.content as NonNullable<RecordedMessage['parts']>;
  const text = parts.filter((p) => p.type === 'text').map((p) => p.text ?? '');
  return { ...m, content: text.join('\n'), parts };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

type MessageReply = Extract<FakeReply, { type: 'message' }>;

/** A scripted reply with what the dialect adds: reasoning (thinking on) and the usage object. */
interface Answer {
  reply: MessageReply;
  /** The finish reason when not the natural one (`length` under the cap, a scripted one). */
  finish: string | undefined;
  reasoning: string | undefined;
  usage: Record<string, unknown>;
}

function wireToolCalls(reply: MessageReply) {
  return (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? `call_${++callSeq}`,
    type: 'function' as const,
    function: {
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
    },
  }));
}

function completion(req: RecordedRequest, { reply, finish, reasoning, usage }: Answer) {
  const calls = wireToolCalls(reply);
  return {
    id: `chatcmpl-${++callSeq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: finish ?? (calls.length ? 'tool_calls' : 'stop'),
      },
    ],
    usage,
  };
}

/**
 * SSE chunks as OpenAI sends them: role, reasoning pieces (DeepSeek thinking mode), content,
 * tool-call deltas (name then argument pieces), finish, usage.
 */
async function sendStream(
  res: ServerResponse,
  req: RecordedRequest,
  { reply, finish, reasoning, usage }: Answer,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `chatcmpl-${++callSeq}`;
  const created = Math.floor(Date.now() / 1000);
  const events: (string | number)[] = [];
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    events.push(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: req.model, choices, ...extra })}\n\n`,
    );
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  delta({ role: 'assistant', content: '' });
  if (reasoning) for (const piece of split(reasoning)) delta({ reasoning_content: piece });
  if (reply.text) for (const piece of split(reply.text)) delta({ content: piece });
  const calls = wireToolCalls(reply);
  calls.forEach((c, index) => {
    if (reply.pauseBeforeCall?.index === index) events.push(reply.pauseBeforeCall.ms);
    delta({
      tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }],
    });
    for (const piece of split(c.function.arguments))
      delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  delta({}, finish ?? (calls.length ? 'tool_calls' : 'stop'));
  const options = req.body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) chunk([], { usage });
  events.push('data: [DONE]\n\n');
  // Paced (issue 18): each event after an even share of `streamMs`, as a model writes its answer.
  const gap = reply.streamMs ? reply.streamMs / events.length : 0;
  const stallAt = reply.stallAfterEvents ?? Number.POSITIVE_INFINITY;
  for (const [n, event] of events.entries()) {
    // A stalled provider: the connection stays open and silent until the client gives up.
    if (n >= stallAt) return void (await new Promise<void>((r) => res.once('close', () => r())));
    const wait = typeof event === 'number' ? event : gap;
    if (wait) await new Promise((r) => setTimeout(r, wait));
    if (res.destroyed) return;
    if (typeof event === 'string') res.write(event);
  }
  res.end();
}

function split(s: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message?: string, retryAfterSeconds?: number): void {
  const headers: Record<string, string> =
    retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {};
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(
    res,
    status,
    { error: { message: message ?? `fake-llm: HTTP ${status}`, type, code: null } },
    headers,
  );
}
