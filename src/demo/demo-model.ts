import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, type ChatMessage, nextAnswer } from './demo-script.ts';

/**
 * The demo's model when no `LLM_API_KEY` is set: a Chat Completions server on loopback
 * (`POST /v1/chat/completions`, streamed or not) answering from `demo-script.ts`. It asks for its
 * key as a provider does (401 without it).
 */

export interface DemoModel {
  baseURL: string;
  close(): Promise<void>;
}

let seq = 0;

/** Decides the next answer from the conversation and the tools offered (the eval's oracle has its own). */
export type DecideAnswer = (messages: ChatMessage[], tools: string[]) => Answer;

export async function startDemoModel(opts: {
  apiKey: string;
  repo: string;
  decide?: DecideAnswer;
  /**
   * Report a provider's prefix cache (`prompt_tokens_details.cached_tokens`): the prompt's
   * characters shared with the previous request, from the start, over 4 (the eval's oracle).
   */
  prefixCache?: boolean;
}): Promise<DemoModel> {
  let previous = '';
  const decide: DecideAnswer = opts.decide ?? ((messages, tools) => nextAnswer(messages, tools, opts.repo));
  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => sendJson(res, 500, { error: { message: String(err) } }));
  });
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/chat/completions')
      return sendJson(res, 404, {
        error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' },
      });
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`)
      return sendJson(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      model?: string;
      stream?: boolean;
      messages?: ChatMessage[];
      tools?: { function: { name: string } }[];
      stream_options?: { include_usage?: boolean };
    };
    const messages = body.messages ?? [];
    const answer = decide(
      messages,
      (body.tools ?? []).map((t) => t.function.name),
    );
    const prompt = JSON.stringify(messages);
    const usage = {
      prompt_tokens: Math.ceil(prompt.length / 4),
      completion_tokens: 20,
      total_tokens: Math.ceil(prompt.length / 4) + 20,
      ...(opts.prefixCache
        ? { prompt_tokens_details: { cached_tokens: Math.floor(sharedPrefix(previous, prompt) / 4) } }
        : {}),
    };
    previous = prompt;
    const model = body.model ?? 'demo';
    if (body.stream)
      return sendStream(res, model, answer, body.stream_options?.include_usage ? usage : undefined);
    sendJson(res, 200, completion(model, answer, usage));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function wireCall(a: Answer) {
  return 'call' in a
    ? [
        {
          id: `call_${++seq}`,
          type: 'function' as const,
          function: { name: a.call.name, arguments: JSON.stringify(a.call.arguments) },
        },
      ]
    : [];
}

function completion(model: string, a: Answer, usage: Record<string, unknown>) {
  const calls = wireCall(a);
  return {
    id: `chatcmpl-${++seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'text' in a ? a.text : null,
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage,
  };
}

function sendStream(
  res: ServerResponse,
  model: string,
  a: Answer,
  usage: Record<string, unknown> | undefined,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `chatcmpl-${++seq}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
    );
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  delta({ role: 'assistant', content: '' });
  if ('text' in a) delta({ content: a.text });
  const calls = wireCall(a);
  for (const [index, c] of calls.entries()) delta({ tool_calls: [{ index, ...c }] });
  delta({}, calls.length ? 'tool_calls' : 'stop');
  if (usage) chunk([], { usage });
  res.end('data: [DONE]\n\n');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
