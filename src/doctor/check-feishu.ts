import type { Config } from '../config.ts';
import { type Finding, off, ok, problem } from './finding.ts';
import { withTimeout } from './with-timeout.ts';

const CHECK = 'feishu';

interface FeishuAnswer {
  code?: number;
  msg?: string;
  tenant_access_token?: string;
  bot?: { app_name?: string; open_id?: string; activate_status?: number };
}

async function call(url: string, init: RequestInit, timeoutMs: number): Promise<FeishuAnswer> {
  const res = await withTimeout(fetch(url, init), timeoutMs, url);
  const body = (await res.json().catch(() => ({}))) as FeishuAnswer;
  return { ...body, code: body.code ?? res.status };
}

/**
 * Feishu credentials as the Open API sees them (at `FEISHU_DOMAIN`): a tenant access token for
 * the app id and secret, then the bot's own info with it (the bot must be enabled for the app).
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
    return [ok(CHECK, `bot "${info.bot.app_name ?? '?'}" (${info.bot.open_id})`)];
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
