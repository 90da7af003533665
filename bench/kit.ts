import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { serve } from '@hono/node-server';
import type { RedisConnection } from '../src/store/redis.ts';

type AnyServer = Server | ReturnType<typeof serve>;

/** Deletes every key of a bench run's prefix. */
export async function deletePrefix(redis: RedisConnection, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length) await redis.unlink(...found);
  } while (cursor !== '0');
}

/** The base URL of a server once it listens on loopback. */
export async function listening(server: AnyServer): Promise<string> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server, dropping kept-alive connections first. */
export function closeServer(server: AnyServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
