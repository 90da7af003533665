import { get } from 'node:http';
import type { TestApp } from '../kit/app.ts';

/**
 * Every key of the app's own prefix (queue keys aside): a rejected webhook must leave this set
 * exactly as it found it — no card, no dedupe claim, nothing.
 */
export async function storedKeys(app: TestApp): Promise<string[]> {
  const { redis, keys } = app.ctx;
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${keys.prefix}:*`, 'COUNT', 1000);
    cursor = next;
    found.push(...batch.filter((k) => !k.startsWith(`${keys.queuePrefix}:`)));
  } while (cursor !== '0');
  return found.sort();
}

/**
 * What an accepted webhook always writes, cheap enough to read per request: the card index (ingest
 * adds to it in the same script that claims the delivery and stores the card) and the routing
 * queue. A full `storedKeys` scan is slow on a busy shared Redis, so properties use this per run.
 */
export async function footprint(app: TestApp): Promise<string> {
  const { redis, keys, queues } = app.ctx;
  const [cards, jobs] = await Promise.all([redis.zcard(keys.cardsByTime()), queues.route.count()]);
  return `${cards} cards, ${jobs} routing jobs`;
}

/** A status the webhook routes may answer to hostile input: never a 5xx. */
export const ACCEPTABLE = new Set([200, 202, 400, 401]);

/** A body of `n` bytes sent in chunks without a Content-Length (chunked transfer). */
export function chunkedBody(n: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let left = n;
  return new ReadableStream({
    pull(c) {
      if (left <= 0) return c.close();
      const size = Math.min(chunk, left);
      left -= size;
      c.enqueue(new Uint8Array(size).fill(0x7b));
    },
  });
}

/** `GET /healthz` on a fresh connection (a pooled one may be the one the server just cut). */
export function healthStatus(baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}
