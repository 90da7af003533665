import type { Client } from '@larksuiteoapi/node-sdk';
import type { Logger } from '../../logger.ts';

export interface BotInfo {
  openId: string;
  name: string;
}

/** The bot's own identity on Feishu: its open_id tells a mention of the bot from other mentions. */
export interface BotIdentity {
  /** Known identity, or undefined while it is still being fetched. */
  current(): BotInfo | undefined;
  /** Waits at most `waitMs` for the identity; undefined when Feishu has not answered by then. */
  ready(waitMs: number): Promise<BotInfo | undefined>;
}

const MAX_RETRY_MS = 60_000;

/**
 * Fetches `GET /open-apis/bot/v3/info` once at start-up and keeps it; on failure it retries in
 * the background with back-off, so a webhook never waits for Feishu beyond a short cold-start
 * grace (`ready(waitMs)`).
 */
export function createBotIdentity(client: Client, log: Logger): BotIdentity {
  let info: BotInfo | undefined;
  let waiters: ((v: BotInfo) => void)[] = [];
  const fetchOnce = async (delayMs: number): Promise<void> => {
    try {
      const res = (await client.request({ method: 'GET', url: '/open-apis/bot/v3/info' })) as {
        code?: number;
        msg?: string;
        bot?: { open_id?: string; app_name?: string };
      };
      if (res.code !== 0 || !res.bot?.open_id) throw new Error(`bot info: code ${res.code} ${res.msg ?? ''}`);
      info = { openId: res.bot.open_id, name: res.bot.app_name ?? '' };
      for (const w of waiters) w(info);
      waiters = [];
    } catch (err) {
      log.warn({ err: (err as Error).message, retryInMs: delayMs }, 'feishu bot info not available yet');
      setTimeout(() => void fetchOnce(Math.min(MAX_RETRY_MS, delayMs * 2)), delayMs).unref();
    }
  };
  void fetchOnce(1000);
  return {
    current: () => info,
    ready(waitMs) {
      if (info) return Promise.resolve(info);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), waitMs);
        timer.unref();
        waiters.push((v) => {
          clearTimeout(timer);
          resolve(v);
        });
      });
    },
  };
}
