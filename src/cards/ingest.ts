import type { Ctx } from '../context.ts';
import { runScript, script } from '../store/run-script.ts';
import { inSpan } from '../tracing/in-span.ts';
import { withTraceContext } from '../tracing/job-context.ts';
import { buildCard } from './build-card.ts';
import type { CardDraft, TriggerCard } from './card.ts';
import { INTAKE_LEASE_MS, queueCardJobsSoon } from './intake.ts';

/** Longer than every sender's redelivery window: Feishu retries ~7 h, GitHub redelivers by hand up to 3 days. */
export const DEDUPE_TTL_SECONDS = 4 * 24 * 3600;
/** A card and its full text live `RETENTION_DAYS` (issue 14); closing a ticket restarts the clock. */
const cardTtlSeconds = (ctx: Pick<Ctx, 'config'>) => Math.ceil(ctx.config.RETENTION_DAYS * 24 * 3600);

/**
 * Claims a delivery, stores its card and enters it in the intake in one step, so a crash never
 * leaves a claimed delivery without its card (or a card whose delivery could be claimed again),
 * nor a stored card that nothing will route (issue 18). The intake entry is scored by when a
 * worker's intake pump may take it: at once (and the pumps are woken) when the answer comes
 * first, else after a lease, by which time this process has queued it or died. The claim's value
 * moves `stored` → `queued` once the follow-up jobs exist (`src/cards/intake.ts`); a redelivery
 * that finds `stored` queues again, which is safe because job ids are fixed.
 */
const CLAIM_AND_STORE = script(`
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
redis.call('ZADD', KEYS[6], ARGV[10], ARGV[1])
if ARGV[11] == '1' then
  redis.call('LPUSH', KEYS[7], '1')
  redis.call('LTRIM', KEYS[7], 0, 0)
end
if ARGV[12] ~= '' then redis.call('HSET', KEYS[8], ARGV[1], ARGV[12]) end
return 'new'
`);

export type IngestResult = { kind: 'new'; card: TriggerCard } | { kind: 'duplicate'; cardId: string };

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
    const result = await claimAndStore(ctx, draft, opts);
    span.setAttributes({
      'switchyard.card.id': result.kind === 'new' ? result.card.id : result.cardId,
      'switchyard.ingest.status': result.kind,
    });
    return result;
  });
}

interface IngestOptions {
  replayKey?: string | undefined;
  answerFirst?: boolean;
}

async function claimAndStore(ctx: Ctx, draft: CardDraft, opts: IngestOptions): Promise<IngestResult> {
  const { card, fullText } = buildCard(draft, ctx.now());
  // The jobs continue this trace, whoever creates them (issue 17); empty with tracing off.
  const trace = withTraceContext({}).traceContext;
  const { keys } = ctx;
  const ttl = cardTtlSeconds(ctx);
  const state = (await runScript(
    ctx.redis,
    CLAIM_AND_STORE,
    [
      keys.seen(card.source, card.eventId),
      keys.card(card.id),
      keys.cardFull(card.id),
      keys.cardsByTime(),
      keys.seenObject(card.source, opts.replayKey ?? '-'),
      keys.cardsIntake(),
      keys.cardsIntakeSignal(),
      keys.cardsIntakeTrace(),
    ],
    [
      card.id,
      JSON.stringify(card),
      fullText ?? '',
      DEDUPE_TTL_SECONDS,
      ttl,
      card.receivedAt,
      card.receivedAt - ttl * 1000,
      ctx.config.CARDS_INDEX_MAX,
      opts.replayKey ? '1' : '0',
      opts.answerFirst ? card.receivedAt : card.receivedAt + INTAKE_LEASE_MS,
      opts.answerFirst ? '1' : '0',
      trace ? JSON.stringify(trace) : '',
    ],
  )) as string;
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
