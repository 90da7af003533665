import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelProxy } from './record-proxy.ts';
import { bodyOf } from './record-proxy.ts';
import { swapsOf, translateChunks } from './replay-translate.ts';
import { describeDifference, nearest } from './request-diff.ts';
import { type CanonicalRequest, canonicalForm, requestHash, type Volatile } from './request-key.ts';
import { chunkBytes, type Exchange, readExchanges } from './traffic-file.ts';

/**
 * `--replay DIR` (issue 29): a loopback server that answers a task run's model requests from its
 * recording, with no model behind it. A request is looked up by `requestHash`; the k-th time a
 * request is asked gets the k-th answer recorded for it, written back chunk by chunk as recorded.
 * A request the recording does not hold is answered 400 (which the product does not retry), and
 * the first such request is kept: its number, the recorded request nearest to it and the first
 * field where they differ, so the task fails saying what changed.
 */

export interface ReplayMiss {
  /** 1, 2, … the request's place among the task run's requests in this replay. */
  request: number;
  /** The nearest recorded request's number, when the run recorded any. */
  nearest: number | null;
  /** The first differing field, e.g. `body.messages[7].content: recorded "…", now "…"`. */
  difference: string;
}

export interface ReplayServer extends ModelProxy {
  /** The first request the recording did not hold, or null while every one was found. */
  firstMiss(): ReplayMiss | null;
  /** Recorded requests this replay has not asked (yet). */
  unasked(): number[];
}

export async function startReplayServer(opts: {
  dir: string;
  label: string;
  basePath: string;
  volatile: () => readonly Volatile[];
}): Promise<ReplayServer> {
  const recorded = readExchanges(opts.dir, opts.label);
  const byHash = new Map<string, Exchange[]>();
  for (const e of recorded) byHash.set(e.hash, [...(byHash.get(e.hash) ?? []), e]);
  let n = 0;
  let miss: ReplayMiss | null = null;
  const server = createServer((req, res) => {
    const seq = ++n;
    void answer(req, res, seq).catch((err: unknown) => refuse(res, `eval replay: ${String(err)}`));
  });
  async function answer(req: IncomingMessage, res: ServerResponse, seq: number): Promise<void> {
    const raw = await bodyOf(req);
    const { request, bindings } = canonicalForm(req.method ?? 'POST', req.url ?? '/', raw, opts.volatile());
    const found = byHash.get(requestHash(request))?.shift();
    if (found) return play(res, found, swapsOf(found.bindings, bindings));
    const m = missOf(recorded, request, seq);
    miss ??= m;
    refuse(res, `request ${seq} is not in the recording ${opts.label}: ${m.difference}`);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${opts.basePath}`,
    firstMiss: () => miss,
    unasked: () => [...byHash.values()].flat().map((e) => e.n),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function missOf(recorded: Exchange[], canonical: CanonicalRequest, seq: number): ReplayMiss {
  if (!recorded.length) return { request: seq, nearest: null, difference: 'this task run was not recorded' };
  const near = nearest(
    recorded.map((e) => ({ n: e.n, canonical: e.request })),
    canonical,
    seq,
  );
  return {
    request: seq,
    nearest: near?.candidate.n ?? null,
    difference: `against recorded request ${near?.candidate.n}: ${describeDifference(near?.differences[0])}`,
  };
}

async function play(res: ServerResponse, e: Exchange, swaps: [string, string][]): Promise<void> {
  const r = e.response;
  res.writeHead(r.status, r.contentType ? { 'content-type': r.contentType } : {});
  const streamed = Boolean(r.contentType?.includes('text/event-stream'));
  const chunks =
    r.encoding === 'utf8'
      ? translateChunks(r.chunks, streamed, swaps).map((c) => Buffer.from(c, 'utf8'))
      : chunkBytes(r);
  for (const chunk of chunks) {
    res.write(chunk);
    // One chunk per write, as recorded: the client reads them apart, as it read the originals.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (r.complete) res.end();
  else res.destroy();
}

/** A refusal both SDKs read as a 400 that retrying cannot help. */
function refuse(res: ServerResponse, message: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'replay_miss', message: `eval replay: ${message}` },
    }),
  );
}
