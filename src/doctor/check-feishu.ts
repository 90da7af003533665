import type { Config } from '../config.ts';
import { type Finding, off, ok, problem } from './finding.ts';
import { withTimeout } from './with-timeout.ts';

const CHECK = 'feishu';

interface FeishuAnswer {
  code?: number;
  msg?: string;
  tenant_access_token?: string;
  bot?: { app_name?: string; open_id?: string; activate_status?: number };
  data?: { URL?: string };
}

async function call(url: string, init: RequestInit, timeoutMs: number): Promise<FeishuAnswer> {
  const res = await withTimeout(fetch(url, init), timeoutMs, url);
  const body = (await res.json().catch(() => ({}))) as FeishuAnswer;
  return { ...body, code: body.code ?? res.status };
}

/**
 * Feishu credentials as the Open API sees them (at `FEISHU_DOMAIN`): a tenant access token for
 * the app id and secret, then the bot's own info with it (the bot must be enabled for the app),
 * then how events arrive (issue 16): in `ws` mode the long-connection endpoint must hand out a
 * connection URL (it opens no connection).
 */
export async function checkFeishu(config: Config, timeoutMs: number): Promise<Finding[]> {
  if (!config.feishuEnabled) return [off(CHECK, 'off (no FEISHU_APP_ID/FEISHU_APP_SECRET)')];
  const base = config.FEISHU_DOMAIN.replace(/\/+$/, '');
  try {
    const token = await call(
      `${base}/open-apis/auth/v3/tenant_access_token/internal`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ app_id: config.FEISHU_APP_ID, app_secret: config.FEISHU_APP_SECRET }),
      },
      timeoutMs,
    );
    if (token.code !== 0 || !token.tenant_access_token)
      return [
        problem(
          CHECK,
          `tenant access token refused (code ${token.code}: ${token.msg ?? 'no message'})`,
          `check FEISHU_APP_ID and FEISHU_APP_SECRET against the app's credentials page at ${base}`,
        ),
      ];
    const info = await call(
      `${base}/open-apis/bot/v3/info`,
      { headers: { authorization: `Bearer ${token.tenant_access_token}` } },
      timeoutMs,
    );
    if (info.code !== 0 || !info.bot?.open_id)
      return [
        problem(
          CHECK,
          `bot info refused (code ${info.code}: ${info.msg ?? 'no message'})`,
          'enable the Bot capability for the app in the Feishu developer console and publish a version',
        ),
      ];
    return [
      await eventMode(config, base, `bot "${info.bot.app_name ?? '?'}" (${info.bot.open_id})`, timeoutMs),
    ];
  } catch (err) {
    return [
      problem(
        CHECK,
        `cannot reach ${base}: ${(err as Error).message}`,
        'check FEISHU_DOMAIN and the network',
      ),
    ];
  }
}

/** Issue 16: how events arrive; in `ws` mode the endpoint must hand out a connection URL. */
async function eventMode(config: Config, base: string, bot: string, timeoutMs: number): Promise<Finding> {
  if (config.feishuEventMode === 'http') return ok(CHECK, `${bot}; events at POST /webhooks/feishu`);
  const endpoint = await call(
    `${base}/callback/ws/endpoint`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ AppID: config.FEISHU_APP_ID, AppSecret: config.FEISHU_APP_SECRET }),
    },
    timeoutMs,
  );
  if (endpoint.code !== 0 || !endpoint.data?.URL)
    return problem(
      CHECK,
      `long connection refused (code ${endpoint.code}: ${endpoint.msg ?? 'no message'})`,
      'the long connection needs a self-built app (docs/feishu-setup.md); or set PUBLIC_URL or FEISHU_EVENT_MODE=http to take events over HTTP',
    );
  return ok(CHECK, `${bot}; events over the long connection`);
}
