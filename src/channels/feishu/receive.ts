import type { Ctx } from '../../context.ts';
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
    const envelope = openFeishuEnvelope(raw, headers, ctx.config, ctx.now());
    if (envelope.kind === 'challenge') return { challenge: envelope.challenge };
    return handle(envelope.body);
  };
}
