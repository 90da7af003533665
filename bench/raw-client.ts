import { connect, type Socket } from 'node:net';

/** A webhook ready to send: its body and its headers (signature included). */
export interface Delivery {
  body: string | Buffer;
  headers: Record<string, string>;
}

/** Requests in flight at once in the ingest benches. */
export const CONCURRENCY = 20;

/**
 * Issue 18, a load generator light enough not to be the bottleneck: every request is serialised
 * to its HTTP/1.1 bytes before the clock starts, and each of `concurrency` kept-alive sockets
 * writes one, reads its answer (status line, `content-length` or chunked body), then writes the
 * next. Per request that is one write and one read, with no `ClientRequest`, agent or header
 * checks: `node:http`'s client spent about as much CPU per request as the servers under test, and
 * on two cores that capped every server's figure near the client's own rate. Every answer must
 * carry a status in `accepted`; anything else (or a closed socket) fails the run.
 */
export async function rawLoad(
  url: string,
  events: readonly Delivery[],
  concurrency: number,
  accepted: readonly number[],
): Promise<number[]> {
  const { hostname, port, pathname } = new URL(url);
  const requests = events.map((e) => serialise(e, `${hostname}:${port}`, pathname));
  const latencies: number[] = [];
  let next = 0;
  const lane = async () => {
    const socket = await open(hostname, Number(port));
    try {
      const reader = new AnswerReader(socket);
      for (let i = next++; i < requests.length; i = next++) {
        const t = performance.now();
        socket.write(requests[i] as Buffer);
        const status = await reader.next();
        if (!accepted.includes(status)) throw new Error(`bench: ${url} answered ${status}`);
        latencies.push(performance.now() - t);
      }
    } finally {
      socket.destroy();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return latencies;
}

export interface RunResult {
  latencies: number[];
  seconds: number;
}

/** A server under load: where to post and the status its every answer must have. */
export interface Target {
  url: string;
  accepted: number;
}

/** `events` posted to `target`, `CONCURRENCY` at a time: each answer's latency and the run's seconds. */
async function run(target: Target, events: readonly Delivery[]): Promise<RunResult> {
  const started = performance.now();
  const latencies = await rawLoad(target.url, events, CONCURRENCY, [target.accepted]);
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/**
 * Both servers warmed with `warmup`, then measured in four runs over the halves of `events` — a,
 * b, b, a — so neither gets the quieter moment; each server's runs merged. The two servers keep
 * their own records, so they take the same deliveries.
 */
export async function alternating(
  a: Target,
  b: Target,
  warmup: readonly Delivery[],
  events: readonly Delivery[],
): Promise<[RunResult, RunResult]> {
  await run(a, warmup);
  await run(b, warmup);
  const first = events.slice(0, events.length / 2);
  const second = events.slice(events.length / 2);
  const a1 = await run(a, first);
  const b1 = await run(b, first);
  const b2 = await run(b, second);
  const a2 = await run(a, second);
  return [merge(a1, a2), merge(b1, b2)];
}

const merge = (x: RunResult, y: RunResult): RunResult => ({
  latencies: [...x.latencies, ...y.latencies],
  seconds: x.seconds + y.seconds,
});

function serialise(e: Delivery, host: string, path: string): Buffer {
  const body = typeof e.body === 'string' ? Buffer.from(e.body) : e.body;
  const head = [`POST ${path} HTTP/1.1`, `host: ${host}`, 'connection: keep-alive'];
  for (const [name, value] of Object.entries(e.headers)) head.push(`${name}: ${value}`);
  head.push(`content-length: ${body.length}`, '', '');
  return Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), body]);
}

function open(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, noDelay: true }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

const CRLF2 = Buffer.from('\r\n\r\n');
const CHUNK_END = Buffer.from('\r\n0\r\n\r\n');

/** Reads one HTTP/1.1 answer at a time off a socket that carries one request at a time. */
class AnswerReader {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (err: Error) => void } | undefined;
  private failed: Error | undefined;

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
      this.settle();
    });
    const fail = (err: Error) => {
      this.failed = err;
      this.waiting?.reject(err);
      this.waiting = undefined;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('bench: the server closed the connection')));
  }

  next(): Promise<number> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.settle();
    });
  }

  private settle(): void {
    if (!this.waiting) return;
    const end = this.answerEnd();
    if (end < 0) return;
    const status = Number(this.buf.toString('latin1', 9, 12));
    this.buf = this.buf.subarray(end);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve(status);
  }

  /** Where the first complete answer in the buffer ends, or -1 while it is incomplete. */
  private answerEnd(): number {
    const headEnd = this.buf.indexOf(CRLF2);
    if (headEnd < 0) return -1;
    const head = this.buf.toString('latin1', 0, headEnd).toLowerCase();
    const length = /\r\ncontent-length: *(\d+)/.exec(head);
    if (length) {
      const end = headEnd + 4 + Number(length[1]);
      return this.buf.length >= end ? end : -1;
    }
    if (!head.includes('\r\ntransfer-encoding: chunked')) return headEnd + 4;
    // The bench's servers send small bodies: the last chunk closes the answer.
    const last = this.buf.indexOf(CHUNK_END, headEnd + 4 - 2);
    return last < 0 ? -1 : last + CHUNK_END.length;
  }
}
