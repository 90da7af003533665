import { noteRefusedDelivery } from '../../cards/edge-events.ts';
import type { Ctx } from '../../context.ts';
import { isHttpError } from '../../errors/http-error.ts';
import type { BotIdentity } from './bot-identity.ts';
import { createFeishuEventHandler } from './handle-event.ts';
import { openFeishuEnvelope } from './open-envelope.ts';
import type { SignatureHeaders } from './verify-signature.ts';

export type FeishuReceiver = (raw: Buffer, headers: SignatureHeaders) => Promise<Record<string, unknown>>;

/**
 * The Feishu inbound path behind `POST /webhooks/feishu` (R-A1): verify and open the push, then
 * the same event handler the long connection uses (`handle-event.ts`), and return the answer body.
 */
export function createFeishuReceiver(ctx: Ctx, bot?: BotIdentity): FeishuReceiver {
  const handle = createFeishuEventHandler(ctx, bot);
  return async (raw, headers) => {
    const envelope = await opened(ctx, raw, headers);
    if (envelope.kind === 'challenge') return { challenge: envelope.challenge };
    return handle(envelope.body);
  };
}

/** Issue 33 item 2: a push refused as unauthenticated (401) shows in the events inbox, at most once a minute. */
async function opened(ctx: Ctx, raw: Buffer, headers: SignatureHeaders) {
  try {
    return openFeishuEnvelope(raw, headers, ctx.config, ctx.now());
  } catch (err) {
    if (isHttpError(err) && err.status === 401)
      await noteRefusedDelivery(ctx, 'feishu', `signature check failed: ${err.message}`);
    throw err;
  }
}
