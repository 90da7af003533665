import type { Context } from 'hono';
import { createFeishuReceiver, type FeishuReceiver } from '../src/channels/feishu/receive.ts';
import type { Ctx } from '../src/context.ts';
import { HttpError } from '../src/errors/http-error.ts';
import { readRawBody } from '../src/web/raw-body.ts';
import type { WebhookIntake } from './webhook-intake.ts';

/**
 * POST /webhooks/feishu (CONTRACT "HTTP"): events, the URL-verification challenge and card
 * actions. 401 on a missing/bad signature, a stale timestamp or a wrong verification token;
 * 400 on a malformed, oversized or undecryptable body; 200 fast otherwise (R-A1). The rules live
 * in `src/channels/feishu/`; this edge reads bytes and answers. Shared by the Hono route and the
 * `node:http` fast path (`fast-webhooks.ts`, issue 18).
 */
export function feishuIntake(ctx: Ctx): WebhookIntake {
  const receive: FeishuReceiver | undefined = ctx.config.feishuEnabled
    ? createFeishuReceiver(ctx)
    : undefined;
  return async (raw, header) => {
    if (!receive) throw new HttpError(503, 'channel_off', 'Feishu is off: FEISHU_APP_ID/SECRET are not set');
    const started = performance.now();
    const answer = await receive(raw, {
      signature: header('x-lark-signature'),
      timestamp: header('x-lark-request-timestamp'),
      nonce: header('x-lark-request-nonce'),
    });
    ctx.metrics.ingestSeconds.observe({ source: 'feishu' }, (performance.now() - started) / 1000);
    return { status: 200, body: answer };
  };
}

/** The Hono route over {@link feishuIntake}. */
export function feishuWebhook(intake: WebhookIntake): (c: Context) => Promise<Response> {
  return async (c) => {
    const raw = await readRawBody(c);
    const answer = await intake(raw, (name) => c.req.header(name));
    return c.json(answer.body, answer.status as 200);
  };
}
