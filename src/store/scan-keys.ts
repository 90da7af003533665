import { Cluster } from 'ioredis';
import type { RedisConnection } from './redis.ts';

/** `s` with Redis glob characters escaped, for a literal MATCH. */
export const globLiteral = (s: string): string => s.replace(/[*?[\]\\]/g, '\\$&');

/**
 * Every key starting with `start`, a page at a time (SCAN with MATCH; on a Cluster each primary
 * is scanned, though a hash-tagged prefix keeps them all on one). A key may come twice (SCAN's
 * guarantee), so what a caller does with a page must be safe to repeat. For migrations and
 * sweeps, never a request's path.
 */
export async function* scanKeys(
  redis: RedisConnection,
  start: string,
  count = 1000,
): AsyncGenerator<string[]> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', `${globLiteral(start)}*`, 'COUNT', count);
      cursor = next;
      if (found.length) yield found;
    } while (cursor !== '0');
  }
}
