import { ingest } from '../../cards/ingest.ts';
import type { Ctx } from '../../context.ts';
import { type BotIdentity, createBotIdentity } from './bot-identity.ts';
import { createFeishuDispatcher } from './dispatcher.ts';
import { createLarkClient } from './lark-client.ts';
import { openFeishuEnvelope } from './open-envelope.ts';
import type { SignatureHeaders } from './verify-signature.ts';

/** How long a webhook may wait for the bot's identity right after start-up (Feishu wants < 3 s). */
export const BOT_IDENTITY_GRACE_MS = 1500;

export type FeishuReceiver = (raw: Buffer, headers: SignatureHeaders) => Promise<Record<string, unknown>>;

/**
 * The Feishu inbound path behind `POST /webhooks/feishu` (R-A1): verify and open the push, parse
 * it into a card, ingest it (Redis only), and return the answer body. Nothing here waits on Feishu
 * except, once after start-up, a bounded grace for the bot's identity.
 */
export function createFeishuReceiver(ctx: Ctx, bot?: BotIdentity): FeishuReceiver {
  const identity = bot ?? createBotIdentity(createLarkClient(ctx.config, ctx.log), ctx.log);
  let warned = false;
  const dispatcher = createFeishuDispatcher(
    () => ({ config: ctx.config, botOpenId: identity.current()?.openId }),
    ctx.log,
  );
  return async (raw, headers) => {
    const envelope = openFeishuEnvelope(raw, headers, ctx.config, ctx.now());
    if (envelope.type === 'challenge') return { challenge: envelope.challenge };
    if (!identity.current() && !(await identity.ready(BOT_IDENTITY_GRACE_MS)) && !warned) {
      warned = true;
      ctx.log.warn('feishu bot identity unknown: any bot mention counts as addressed to this bot');
    }
    const outcome = await dispatcher.dispatch(envelope.body);
    if (outcome.type === 'card') {
      const result = await ingest(ctx, outcome.draft);
      ctx.log.debug({ eventId: outcome.draft.eventId, status: result.status }, 'feishu event ingested');
    } else {
      ctx.log.debug({ reason: outcome.reason }, 'feishu event skipped');
    }
    return outcome.answer;
  };
}
