import type { Config } from '../config.ts';
import type { Say } from './doctor-text.ts';
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
export async function checkFeishu(config: Config, timeoutMs: number, say: Say): Promise<Finding[]> {
  if (!config.feishuEnabled) return [off(CHECK, say('feishu.off'))];
  const base = config.FEISHU_DOMAIN.replace(/\/+$/, '');
  const refusal = (a: FeishuAnswer) => ({ code: a.code ?? '?', message: a.msg ?? say('feishu.no-message') });
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
          say('feishu.token-refused', refusal(token)),
          say('feishu.token-refused.fix', { base }),
        ),
      ];
    const info = await call(
      `${base}/open-apis/bot/v3/info`,
      { headers: { authorization: `Bearer ${token.tenant_access_token}` } },
      timeoutMs,
    );
    if (info.code !== 0 || !info.bot?.open_id)
      return [problem(CHECK, say('feishu.bot-refused', refusal(info)), say('feishu.bot-refused.fix'))];
    const bot = say('feishu.bot', { name: info.bot.app_name ?? '?', openId: info.bot.open_id });
    if (config.feishuEventMode === 'http') return [ok(CHECK, say('feishu.ok-http', { bot }))];
    const endpoint = await wsEndpoint(config, base, timeoutMs);
    if (endpoint.code !== 0 || !endpoint.data?.URL)
      return [problem(CHECK, say('feishu.ws-refused', refusal(endpoint)), say('feishu.ws-refused.fix'))];
    return [ok(CHECK, say('feishu.ok-ws', { bot }))];
  } catch (err) {
    const vars = { base, error: (err as Error).message };
    return [problem(CHECK, say('feishu.unreachable', vars), say('feishu.unreachable.fix'))];
  }
}

/** Issue 16: in `ws` mode the long-connection endpoint must hand out a connection URL. */
function wsEndpoint(config: Config, base: string, timeoutMs: number): Promise<FeishuAnswer> {
  return call(
    `${base}/callback/ws/endpoint`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ AppID: config.FEISHU_APP_ID, AppSecret: config.FEISHU_APP_SECRET }),
    },
    timeoutMs,
  );
}
