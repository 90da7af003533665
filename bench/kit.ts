import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { serve } from '@hono/node-server';
import { type Config, loadConfig } from '../src/config.ts';
import type { RedisConnection } from '../src/store/redis.ts';
import { startTestApp, type TestApp } from '../test/kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../test/kit/fake-feishu.ts';
import type { FakeLlm, FakeReply, RecordedRequest } from '../test/kit/fake-llm.ts';
import { cardsIn } from '../test/kit/scripted-model.ts';

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

/** The encrypt key of the Feishu app the benches' product talks to. */
export const BENCH_ENCRYPT_KEY = 'bench-encrypt-key';

/** The product wired to a fake Feishu and the given model, on a key prefix of its own. */
export interface FeishuBench {
  app: TestApp;
  feishu: FakeFeishu;
  /** Closes the product (its keys go with it) and the fake Feishu; the model is the caller's. */
  close(): Promise<void>;
}

export async function startFeishuBench(llm: FakeLlm): Promise<FeishuBench> {
  const feishu = await startFakeFeishu();
  // The kit mints the key prefix and drops its keys once the workers have stopped.
  const app = await startTestApp({
    FEISHU_APP_ID: feishu.appId,
    FEISHU_APP_SECRET: feishu.appSecret,
    FEISHU_ENCRYPT_KEY: BENCH_ENCRYPT_KEY,
    FEISHU_DOMAIN: feishu.url,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'bench',
  });
  return {
    app,
    feishu,
    async close() {
      await app.close();
      await feishu.close();
    },
  };
}

/** The signing secret of the GitHub webhooks the benches send. */
export const BENCH_GITHUB_SECRET = 'bench-secret';

/**
 * The product configured for the GitHub ingest benches: webhooks signed with
 * `BENCH_GITHUB_SECRET`, a fixed bot login, and an API nothing calls (no workers run).
 */
export function githubBenchConfig(redisUrl: string, prefix: string): Config {
  return loadConfig({
    REDIS_URL: redisUrl,
    KEY_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    GITHUB_WEBHOOK_SECRET: BENCH_GITHUB_SECRET,
    GITHUB_TOKEN: 'bench-token',
    GITHUB_BOT_LOGIN: 'switchyard-bot',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    // Issue 31: every event is one author's in one repository; the limits count but never refuse.
    INGEST_RATE_PER_AUTHOR: '1000000000',
    INGEST_RATE_PER_REPO: '1000000000',
  });
}

/**
 * The executor's first answer in the acknowledgement benches: acknowledge the request's card and
 * read it (a second call), paced as the bench's model is.
 */
export function ackAndReadCard(
  req: RecordedRequest,
  paced: Partial<Omit<Extract<FakeReply, { type: 'message' }>, 'type'>>,
): FakeReply {
  const card = cardsIn(req)[0] ?? 'none';
  return {
    type: 'message',
    toolCalls: [
      { name: 'reply', arguments: { to: card, text: `Looking at ${card} now; a fix with a test follows.` } },
      { name: 'read_card', arguments: { card } },
    ],
    ...paced,
  };
}
