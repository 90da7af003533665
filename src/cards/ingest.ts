import type { Ctx } from '../context.ts';
import { noteChannelEvent } from '../stats/channel-events.ts';
import { inSpan } from '../tracing/in-span.ts';
import { withTraceContext } from '../tracing/job-context.ts';
import { buildCard } from './build-card.ts';
import type { CardDraft, TriggerCard } from './card.ts';
import { claimAndStore } from './claim-batch.ts';
import { cardTtlSeconds, rateScopes, textObject } from './growth-bounds.ts';
import { noteIngested } from './ingest-fate.ts';
import { INTAKE_LEASE_MS, queueCardJobsSoon } from './intake.ts';
import { isStaleObject } from './stale-object.ts';

/**
 * `rate_limited` (issue 31): the card's author or place was past its per-minute limit, and
 * nothing was stored; `cardId` is the id the card would have had.
 */
export type IngestResult =
  | { kind: 'new'; card: TriggerCard }
  | { kind: 'duplicate'; cardId: string }
  | { kind: 'rate_limited'; cardId: string; scope: RateScope };

/**
 * Dedupes, stores and queues routing and the "seen" reaction for one event (nothing slower than
 * Redis). Safe to call any number of times, concurrently, for one delivery. `replayKey` names
 * what the body is about (GitHub: `githubReplayKey`): a second delivery id for it is a duplicate
 * too, in the same script. With `answerFirst` (the webhooks, issue 18) it returns once the card is
 * durable in the intake — one script, one round trip — and a worker's intake pump creates its
 * jobs, many cards at a time; otherwise this process creates them and it returns once they exist.
 */
export function ingest(ctx: Ctx, draft: CardDraft, opts: IngestOptions = {}): Promise<IngestResult> {
  // Issue 17: the root of a webhook's trace below the HTTP span; ids only, never the card's text.
  const attributes = { 'switchyard.card.source': draft.source, 'switchyard.card.kind': draft.kind };
  return inSpan('card.ingest', attributes, async (span) => {
    // Issue 33: Home counts a channel's events; written beside the claim, not after it.
    const counted = noteChannelEvent(ctx, draft.source, ctx.now()).catch((err: unknown) =>
      ctx.log.warn({ err }, 'channel event count failed'),
    );
    const result = await claimCard(ctx, draft, opts);
    await counted;
    span.setAttributes({
      'switchyard.card.id': result.kind === 'new' ? result.card.id : result.cardId,
      'switchyard.ingest.status': result.kind,
    });
    return result;
  });
}

interface IngestOptions {
  replayKey?: string | undefined;
  /** When the object the event is about last changed (issue 31: older than the window, a replay). */
  objectAt?: number | undefined;
  answerFirst?: boolean;
}

async function claimCard(ctx: Ctx, draft: CardDraft, opts: IngestOptions): Promise<IngestResult> {
  const { card, fullText } = buildCard(draft, ctx.now());
  const stale = isStaleObject(opts.objectAt, card.receivedAt);
  const result = await claim(ctx, card, fullText, opts, stale);
  // Issue 33 item 2: the events inbox, right after the claim (one more round trip, not awaited
  // when the webhook answers first). A crash in between leaves a new card without its `received`
  // entry until its routing job writes the card's fate; a lost duplicate's entry stays lost.
  const noted = noteIngested(ctx, card, result, stale);
  if (!opts.answerFirst) await noted;
  return result;
}

async function claim(
  ctx: Ctx,
  card: TriggerCard,
  fullText: string | undefined,
  opts: IngestOptions,
  stale: boolean,
): Promise<IngestResult> {
  if (stale) {
    ctx.metrics.duplicates.inc({ source: card.source });
    ctx.log.info({ eventId: card.eventId, objectAt: opts.objectAt }, 'event about a stale object: a replay');
    return { kind: 'duplicate', cardId: card.id };
  }
  // The jobs continue this trace, whoever creates them (issue 17); empty with tracing off.
  const trace = withTraceContext({}).traceContext;
  const state = await claimAndStore(ctx, {
    cardId: card.id,
    source: card.source,
    eventId: card.eventId,
    json: JSON.stringify(card),
    fullText: fullText ?? '',
    receivedAt: card.receivedAt,
    replayKey: opts.replayKey,
    intakeAt: opts.answerFirst ? card.receivedAt : card.receivedAt + INTAKE_LEASE_MS,
    signal: opts.answerFirst === true,
    trace: trace ? JSON.stringify(trace) : '',
    ttlSeconds: cardTtlSeconds(ctx.config, card),
    rate: rateScopes(card),
    textObject: textObject(card),
  });
  if (state.startsWith('rate_limited:')) return rateLimited(ctx, card, state.slice('rate_limited:'.length));
  if (state.startsWith('replay:')) {
    ctx.metrics.duplicates.inc({ source: card.source });
    return { kind: 'duplicate', cardId: state.slice('replay:'.length) };
  }
  if (state === 'queued') {
    ctx.metrics.duplicates.inc({ source: card.source });
    return { kind: 'duplicate', cardId: card.id };
  }
  // `new`, or `stored`: an earlier attempt stored the card and may not have queued its jobs (a
  // `stored` card answered first is still in the intake, where a pump takes it).
  if (!opts.answerFirst) await queueCardJobsSoon(ctx, { card, trace });
  if (state !== 'new') {
    ctx.metrics.duplicates.inc({ source: card.source });
    return { kind: 'duplicate', cardId: card.id };
  }
  ctx.metrics.eventsIn.inc({ source: card.source });
  return { kind: 'new', card };
}

type RateScope = 'author' | 'place';

/** Counted in metrics, and logged once per author or place and minute in this process (a flood is one line). */
function rateLimited(ctx: Ctx, card: TriggerCard, which: string): IngestResult {
  const scope: RateScope = which === 'author' ? 'author' : 'place';
  ctx.metrics.rateLimited.inc({ source: card.source, scope });
  const scopes = rateScopes(card);
  const name = (scope === 'author' ? scopes.author : scopes.place) ?? '';
  if (firstInMinute(ctx, name, card.receivedAt))
    ctx.log.warn({ cardId: card.id, eventId: card.eventId, scope, name }, 'ingest rate limit: event dropped');
  return { kind: 'rate_limited', cardId: card.id, scope };
}

const logged = new WeakMap<Ctx, Map<string, number>>();

function firstInMinute(ctx: Ctx, name: string, now: number): boolean {
  const seen = logged.get(ctx) ?? new Map<string, number>();
  logged.set(ctx, seen);
  if ((seen.get(name) ?? 0) > now) return false;
  if (seen.size > 1000) seen.clear();
  seen.set(name, now + 60_000);
  return true;
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
