import type { Context } from 'hono';
import { createFeishuReceiver, type FeishuReceiver } from '../src/channels/feishu/receive.ts';
import type { Ctx } from '../src/context.ts';
import { HttpError } from '../src/errors/http-error.ts';
import { readRawBody } from '../src/web/raw-body.ts';

/**
 * POST /webhooks/feishu (CONTRACT "HTTP"): events, the URL-verification challenge and card
 * actions. 401 on a missing/bad signature, a stale timestamp or a wrong verification token;
 * 400 on a malformed, oversized or undecryptable body; 200 fast otherwise (R-A1). The rules live
 * in `src/channels/feishu/`; this edge reads bytes and answers.
 */
export function feishuWebhook(ctx: Ctx): (c: Context) => Promise<Response> {
  const receive: FeishuReceiver | undefined = ctx.config.feishuEnabled
    ? createFeishuReceiver(ctx)
    : undefined;
  return async (c) => {
    if (!receive) throw new HttpError(503, 'channel_off', 'Feishu is off: FEISHU_APP_ID/SECRET are not set');
    const stop = ctx.metrics.ingestSeconds.startTimer({ source: 'feishu' });
    const raw = await readRawBody(c);
    const answer = await receive(raw, {
      signature: c.req.header('x-lark-signature'),
      timestamp: c.req.header('x-lark-request-timestamp'),
      nonce: c.req.header('x-lark-request-nonce'),
    });
    stop();
    return c.json(answer);
  };
}
