import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';

export const ENCRYPT_KEY = 'test-encrypt-key-0123';
export const VERIFY_TOKEN = 'verify-token';

export interface FeishuHarness {
  app: TestApp;
  feishu: FakeFeishu;
  /** `…/webhooks/feishu` of the real server. */
  hook: string;
  close(): Promise<void>;
}

/** The real product (server + workers, fresh Redis prefix) wired to a fake Feishu. */
export async function startFeishuHarness(
  env: Record<string, string> = {},
  opts: { workers?: boolean } = {},
): Promise<FeishuHarness> {
  const feishu = await startFakeFeishu();
  const app = await startTestApp(
    {
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
      FEISHU_VERIFICATION_TOKEN: VERIFY_TOKEN,
      FEISHU_DOMAIN: feishu.url,
      ...env,
    },
    opts,
  );
  return {
    app,
    feishu,
    hook: `${app.url}/webhooks/feishu`,
    async close() {
      await app.close();
      await feishu.close();
    },
  };
}

/** Every key of this app's prefix that belongs to cards or delivery claims. */
export async function cardKeys(app: TestApp): Promise<string[]> {
  const { redis, keys } = app.ctx;
  const found: string[] = [];
  for (const pattern of [`${keys.prefix}:card:*`, `${keys.prefix}:seen:*`, `${keys.prefix}:cards`]) {
    let cursor = '0';
    do {
      const [nextCursor, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = nextCursor;
      found.push(...batch);
    } while (cursor !== '0');
  }
  return found;
}

/** Ids of the stored cards, oldest first. */
export async function storedCardIds(app: TestApp): Promise<string[]> {
  return app.ctx.redis.zrange(app.ctx.keys.cardsByTime(), 0, -1);
}
