import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { bareSignatureOk } from './ingest-github.ts';

interface Held {
  delivery: string;
  body: Buffer;
  res: ServerResponse;
}

/**
 * Issue 18, the floor of a durable answer: the bare server's work (read the body, check the HMAC in
 * constant time) plus the least a server can do to make the answer durable — every body of an
 * event-loop turn stored under its delivery id by one `MSET`, one round trip per turn, and only
 * then the 202. No dedupe, no parse, no card, no expiry (the bench server drops its keys when it
 * stops). What it reaches against the bare server bounds what any server that stores before
 * answering can reach on the same machine: Redis's own CPU shares the cores with the client and
 * the server.
 */
export function storingVerifier(redis: Redis, prefix: string): Server {
  let turn: Held[] | undefined;
  const flush = (held: Held[]) => {
    const pairs = held.flatMap((h) => [`${prefix}:${h.delivery}`, h.body]);
    redis.mset(pairs).then(
      () => {
        for (const h of held) answer(h.res, 202);
      },
      () => {
        for (const h of held) answer(h.res, 503);
      },
    );
  };
  const hold = (h: Held) => {
    if (!turn) {
      const held: Held[] = [];
      turn = held;
      setImmediate(() => {
        turn = undefined;
        flush(held);
      });
    }
    turn.push(h);
  };
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!bareSignatureOk(req, body)) return answer(res, 401);
      hold({ delivery: String(req.headers['x-github-delivery'] ?? ''), body, res });
    });
  });
}

function answer(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(status === 202 ? '{"ok":true}' : '{}');
}
