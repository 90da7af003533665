import type { Ctx } from '../context.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { inSpan } from '../tracing/in-span.ts';
import { withTraceContext } from '../tracing/job-context.ts';
import { buildCard } from './build-card.ts';
import type { CardDraft, TriggerCard } from './card.ts';
import { seenReactionFor } from './seen-reaction.ts';

/** Longer than every sender's redelivery window: Feishu retries ~7 h, GitHub redelivers by hand up to 3 days. */
export const DEDUPE_TTL_SECONDS = 4 * 24 * 3600;
/** A card and its full text live `RETENTION_DAYS` (issue 14); closing a ticket restarts the clock. */
const cardTtlSeconds = (ctx: Pick<Ctx, 'config'>) => Math.ceil(ctx.config.RETENTION_DAYS * 24 * 3600);

/**
 * Claims a delivery and stores its card in one step, so a crash never leaves a claimed delivery
 * without its card (or a card whose delivery could be claimed again). The claim's value moves
 * `stored` → `queued` once the follow-up jobs are enqueued; a redelivery that finds `stored`
 * (the first attempt died in between) enqueues again, which is safe because job ids are fixed.
 */
const CLAIM_AND_STORE = `
local state = redis.call('GET', KEYS[1])
if state then return state end
-- Issue 14: the same body under a new delivery id is a replay: the first card stands for it.
if ARGV[9] == '1' then
  local first = redis.call('GET', KEYS[5])
  if first and first ~= ARGV[1] then return 'replay:' .. first end
  redis.call('SET', KEYS[5], ARGV[1], 'EX', ARGV[4])
end
redis.call('SET', KEYS[1], 'stored', 'EX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[5])
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3], 'EX', ARGV[5]) end
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1])
-- The index stays bounded (issue 14): entries past the retention window, then the oldest past the cap.
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[7])
redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -(tonumber(ARGV[8]) + 1))
return 'new'
`;

export type IngestResult = { kind: 'new'; card: TriggerCard } | { kind: 'duplicate'; cardId: string };

/**
 * Dedupes, stores, reacts and enqueues routing for one event, all before the webhook is answered
 * (nothing slower than Redis). Safe to call any number of times, concurrently, for one delivery.
 * `replayKey` names what the body is about (GitHub: `githubReplayKey`): a second delivery id for
 * it is a duplicate too, in the same script.
 */
export function ingest(
  ctx: Ctx,
  draft: CardDraft,
  opts: { replayKey?: string | undefined } = {},
): Promise<IngestResult> {
  // Issue 17: the root of a webhook's trace below the HTTP span; ids only, never the card's text.
  const attributes = { 'switchyard.card.source': draft.source, 'switchyard.card.kind': draft.kind };
  return inSpan('card.ingest', attributes, async (span) => {
    const result = await claimStoreAndQueue(ctx, draft, opts);
    span.setAttributes({
      'switchyard.card.id': result.kind === 'new' ? result.card.id : result.cardId,
      'switchyard.ingest.status': result.kind,
    });
    return result;
  });
}

async function claimStoreAndQueue(
  ctx: Ctx,
  draft: CardDraft,
  opts: { replayKey?: string | undefined },
): Promise<IngestResult> {
  const { card, fullText } = buildCard(draft, ctx.now());
  const { keys } = ctx;
  const seenKey = keys.seen(card.source, card.eventId);
  const state = (await ctx.redis.eval(
    CLAIM_AND_STORE,
    5,
    seenKey,
    keys.card(card.id),
    keys.cardFull(card.id),
    keys.cardsByTime(),
    keys.seenObject(card.source, opts.replayKey ?? '-'),
    card.id,
    JSON.stringify(card),
    fullText ?? '',
    DEDUPE_TTL_SECONDS,
    cardTtlSeconds(ctx),
    card.receivedAt,
    card.receivedAt - cardTtlSeconds(ctx) * 1000,
    ctx.config.CARDS_INDEX_MAX,
    opts.replayKey ? '1' : '0',
  )) as string;
  if (state.startsWith('replay:')) {
    ctx.metrics.duplicates.inc({ source: card.source });
    return { kind: 'duplicate', cardId: state.slice('replay:'.length) };
  }
  if (state === 'queued') {
    ctx.metrics.duplicates.inc({ source: card.source });
    return { kind: 'duplicate', cardId: card.id };
  }
  const reaction = seenReactionFor(card);
  await Promise.all([
    reaction
      ? enqueueEffect(ctx, { key: `seen:${card.id}`, effect: reaction, exemptFromPause: true })
      : undefined,
    ctx.queues.route.add('route', withTraceContext({ cardId: card.id }), {
      jobId: card.id,
      removeOnComplete: { age: 3600 },
      removeOnFail: false,
    }),
  ]);
  await ctx.redis.set(seenKey, 'queued', 'KEEPTTL');
  if (state !== 'new') {
    ctx.metrics.duplicates.inc({ source: card.source });
    return { kind: 'duplicate', cardId: card.id };
  }
  ctx.metrics.eventsIn.inc({ source: card.source });
  return { kind: 'new', card };
}

/** Callers import it from here too; new code imports `card-store.ts`. */
export { loadCard } from './card-store.ts';

/** Whether a delivery or event id was already claimed by `ingest` (within the dedupe window). */
export async function wasSeen(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  source: string,
  eventId: string,
): Promise<boolean> {
  return (await ctx.redis.exists(ctx.keys.seen(source, eventId))) === 1;
}
