import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalForm, requestHash, type Volatile } from './request-key.ts';
import { appendExchange, storedChunks } from './traffic-file.ts';

/**
 * `--record DIR` (issue 29): a loopback HTTP proxy in front of the model a task run would use
 * (the oracle's server or the `EVAL_LLM_*` provider). It forwards every request unchanged, headers
 * included, and passes the answer back as it comes, chunk by chunk, so a streamed answer streams;
 * when the answer ends it appends the exchange to the recording (`traffic-file.ts`), keyed by
 * `requestHash`. The product is pointed at it by its base URL; the provider stays the one the run
 * resolved, so the same contract is spoken.
 */

export interface ModelProxy {
  /** The product's `LLM_BASE_URL`: this server with the upstream's path. */
  baseURL: string;
  close(): Promise<void>;
}

export interface RecordProxy extends ModelProxy {
  /** The first exchange that could not be recorded, and why; null while every one was. */
  failure(): string | null;
}

// Hop-by-hop and framing headers are the proxy's own; the answer is asked for uncompressed so the
// recording holds the bytes the product reads.
const DROP = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding']);

export async function startRecordProxy(opts: {
  upstream: string;
  dir: string;
  label: string;
  volatile: () => readonly Volatile[];
}): Promise<RecordProxy> {
  const upstream = new URL(opts.upstream);
  let n = 0;
  let failure: string | null = null;
  const server = createServer((req, res) => {
    const seq = ++n;
    // The model unreachable is the product's to retry, as without the recorder: a 502, not kept.
    void forward(req, res, seq).catch((err: unknown) => {
      if (res.writableEnded) return;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `eval recorder: ${String(err)}`, type: 'proxy_error' } }));
    });
  });
  async function forward(req: IncomingMessage, res: ServerResponse, seq: number): Promise<void> {
    const raw = await bodyOf(req);
    const path = req.url ?? '/';
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        DROP.has(k) || v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]],
      ),
    );
    const method = req.method ?? 'POST';
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const answer = await fetch(new URL(path, upstream.origin), {
      method,
      headers: { ...headers, 'accept-encoding': 'identity' },
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: raw }),
      signal: controller.signal,
    });
    const contentType = answer.headers.get('content-type');
    const retryAfter = answer.headers.get('retry-after');
    res.writeHead(answer.status, {
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(retryAfter ? { 'retry-after': retryAfter } : {}),
    });
    const chunks: Buffer[] = [];
    let complete = true;
    try {
      for await (const c of answer.body ?? []) {
        const b = Buffer.from(c as Uint8Array);
        chunks.push(b);
        res.write(b);
      }
    } catch {
      complete = false;
    }
    res.end();
    try {
      const { request, bindings } = canonicalForm(method, path, raw, opts.volatile());
      appendExchange(opts.dir, opts.label, {
        n: seq,
        hash: requestHash(request),
        request,
        bindings,
        response: { status: answer.status, contentType, ...storedChunks(chunks), complete },
      });
    } catch (err) {
      failure ??= `request ${seq} was not recorded: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    failure: () => failure,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
