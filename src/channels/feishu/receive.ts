import { ingest } from '../../cards/ingest.ts';
import type { Ctx } from '../../context.ts';
import { type BotIdentity, createBotIdentity } from './bot-identity.ts';
import { createFeishuDispatcher } from './dispatcher.ts';
import { createLarkClient } from './lark-client.ts';
import { openFeishuEnvelope } from './open-envelope.ts';
import type { SignatureHeaders } from './verify-signature.ts';

/**
 * How long after start-up a webhook may wait for the bot's identity (Feishu wants < 3 s). Past
 * it nothing waits: an unreachable Feishu must not slow every webhook down.
 */
export const BOT_IDENTITY_GRACE_MS = 1500;

export type FeishuReceiver = (raw: Buffer, headers: SignatureHeaders) => Promise<Record<string, unknown>>;

/**
 * The Feishu inbound path behind `POST /webhooks/feishu` (R-A1): verify and open the push, parse
 * it into a card, ingest it (Redis only), and return the answer body. Nothing here waits on Feishu
 * except, once after start-up, a bounded grace for the bot's identity.
 */
export function createFeishuReceiver(ctx: Ctx, bot?: BotIdentity): FeishuReceiver {
  const identity = bot ?? createBotIdentity(createLarkClient(ctx.config, ctx.log), ctx.log);
  const graceEnds = Date.now() + BOT_IDENTITY_GRACE_MS;
  let warned = false;
  const dispatcher = createFeishuDispatcher(
    () => ({ config: ctx.config, botOpenId: identity.current()?.openId }),
    ctx.log,
  );
  return async (raw, headers) => {
    const envelope = openFeishuEnvelope(raw, headers, ctx.config, ctx.now());
    if (envelope.type === 'challenge') return { challenge: envelope.challenge };
    const grace = graceEnds - Date.now();
    if (!identity.current() && !(grace > 0 && (await identity.ready(grace))) && !warned) {
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
