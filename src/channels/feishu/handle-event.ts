import { noteIgnoredEvent } from '../../cards/edge-events.ts';
import { ingest } from '../../cards/ingest.ts';
import type { Ctx } from '../../context.ts';
import { type BotIdentity, createBotIdentity } from './bot-identity.ts';
import { createFeishuDispatcher } from './dispatcher.ts';
import { feishuEdgeEvent } from './edge-event.ts';
import { createLarkClient } from './lark-client.ts';
import { feishuObjectTime } from './object-time.ts';

/**
 * How long after start-up an event may wait for the bot's identity (Feishu wants < 3 s). Past
 * it nothing waits: an unreachable Feishu must not slow every event down.
 */
export const BOT_IDENTITY_GRACE_MS = 1500;

/** One authenticated, plain event body (schema 2.0) in; the answer body for Feishu out. */
export type FeishuEventHandler = (body: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * The one Feishu inbound path after authentication (R-A1), shared by the HTTP webhook and the
 * long connection (issue 16): parse the event into a card and ingest it (dedupe + store, Redis
 * only). Nothing here waits on Feishu except, once after start-up, a bounded grace for the bot's
 * identity.
 */
export function createFeishuEventHandler(ctx: Ctx, bot?: BotIdentity): FeishuEventHandler {
  const identity = bot ?? createBotIdentity(createLarkClient(ctx.config, ctx.log), ctx.log);
  const graceEnds = Date.now() + BOT_IDENTITY_GRACE_MS;
  let warned = false;
  const dispatcher = createFeishuDispatcher(
    () => ({ config: ctx.config, botOpenId: identity.current()?.openId }),
    ctx.log,
  );
  return async (body) => {
    const grace = graceEnds - Date.now();
    if (!identity.current() && !(grace > 0 && (await identity.ready(grace))) && !warned) {
      warned = true;
      ctx.log.warn('feishu bot identity unknown: any bot mention counts as addressed to this bot');
    }
    const outcome = await dispatcher.dispatch(body);
    if (outcome.kind === 'card') {
      const result = await ingest(ctx, outcome.draft, {
        objectAt: feishuObjectTime(body),
        answerFirst: true,
      });
      // The chat id here is how an operator finds a chat's `oc_…` id (docs/feishu-setup.md).
      ctx.log.debug(
        { eventId: outcome.draft.eventId, chatId: outcome.draft.conversation, status: result.kind },
        'feishu event ingested',
      );
    } else {
      ctx.log.debug({ reason: outcome.reason }, 'feishu event skipped');
      const seen = feishuEdgeEvent(body);
      if (seen) await noteIgnoredEvent(ctx, seen, `not handled: ${outcome.reason}`);
    }
    return outcome.answer;
  };
}
