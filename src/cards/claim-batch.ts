import type { Ctx } from '../context.ts';
import { runScript, script } from '../store/run-script.ts';

/** What one card's claim-and-store needs besides the context's keys and settings. */
export interface Claim {
  cardId: string;
  source: string;
  eventId: string;
  /** The card as stored (JSON). */
  json: string;
  /** The whole text when the card's was cut, else empty. */
  fullText: string;
  receivedAt: number;
  /** Issue 14: what the body is about; a second delivery id for it is a replay. */
  replayKey?: string | undefined;
  /** When a worker's intake pump may take the card. */
  intakeAt: number;
  /** Wake the pumps now (the answer came first). */
  signal: boolean;
  /** The trace context (JSON) the card's jobs continue, or empty. */
  trace: string;
}

/** `new`, `stored`, `queued` (the delivery's claim), or `replay:<card id>` (issue 14). */
export type ClaimState = string;

/** Cards claimed in one script call at most; a bigger turn's claims go out in several. */
const MAX_CLAIMS = 100;
const SHARED_KEYS = 4;
const KEYS_PER_CLAIM = 4;
const SHARED_ARGS = 4;
const ARGS_PER_CLAIM = 8;

/**
 * Claims deliveries, stores their cards and enters them in the intake, each card atomically, so a
 * crash never leaves a claimed delivery without its card (or a card whose delivery could be
 * claimed again), nor a stored card that nothing will route (issue 18). A card's intake entry is
 * scored by when a worker's intake pump may take it. The claim's value moves `stored` → `queued`
 * once the follow-up jobs exist (`intake.ts`); a redelivery that finds `stored` queues again,
 * which is safe because job ids are fixed. One call covers every card of an event-loop turn:
 * KEYS are the index, the intake, its signal and its trace hash, then per card its claim, card,
 * full text and replay claim; ARGV the dedupe and card TTLs, the index's cut-off and cap, then per
 * card its id, JSON, full text, time, replay flag, intake score, signal flag and trace.
 */
const CLAIM_AND_STORE = script(`
local out = {}
local added, signal = false, false
for i = 0, (#KEYS - ${SHARED_KEYS}) / ${KEYS_PER_CLAIM} - 1 do
  local k = ${SHARED_KEYS} + i * ${KEYS_PER_CLAIM}
  local a = ${SHARED_ARGS} + i * ${ARGS_PER_CLAIM}
  local id = ARGV[a + 1]
  local state = redis.call('GET', KEYS[k + 1])
  if not state and ARGV[a + 5] == '1' then
    local first = redis.call('GET', KEYS[k + 4])
    if first and first ~= id then
      state = 'replay:' .. first
    else
      redis.call('SET', KEYS[k + 4], id, 'EX', ARGV[1])
    end
  end
  if not state then
    redis.call('SET', KEYS[k + 1], 'stored', 'EX', ARGV[1])
    redis.call('SET', KEYS[k + 2], ARGV[a + 2], 'EX', ARGV[2])
    if ARGV[a + 3] ~= '' then redis.call('SET', KEYS[k + 3], ARGV[a + 3], 'EX', ARGV[2]) end
    redis.call('ZADD', KEYS[1], ARGV[a + 4], id)
    redis.call('ZADD', KEYS[2], ARGV[a + 6], id)
    if ARGV[a + 7] == '1' then signal = true end
    if ARGV[a + 8] ~= '' then redis.call('HSET', KEYS[4], id, ARGV[a + 8]) end
    added = true
    state = 'new'
  end
  out[i + 1] = state
end
-- The index stays bounded (issue 14): entries past the retention window, then the oldest past the cap.
if added then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[4]) + 1))
end
if signal then
  redis.call('LPUSH', KEYS[3], '1')
  redis.call('LTRIM', KEYS[3], 0, 0)
end
return out
`);

interface Pending {
  claim: Claim;
  resolve: (state: ClaimState) => void;
  reject: (err: unknown) => void;
}

type ClaimCtx = Pick<Ctx, 'redis' | 'keys' | 'config'>;

/** Per context: the claims waiting for the end of this event-loop turn. */
const waiting = new WeakMap<ClaimCtx, Pending[]>();

/**
 * Claims one card (see {@link CLAIM_AND_STORE}) together with every other claim made in the same
 * event-loop turn: once the turn's I/O callbacks have run (`setImmediate`), one script call
 * carries them all, so under a burst of webhooks each answer costs a share of one round trip
 * rather than a command, a socket write and a reply of its own (issue 18). Alone, a claim waits
 * only for the end of the current turn. Each settles with its own card's state.
 */
export function claimAndStore(ctx: ClaimCtx, claim: Claim): Promise<ClaimState> {
  const queue = waiting.get(ctx) ?? startTurn(ctx);
  return new Promise((resolve, reject) => {
    queue.push({ claim, resolve, reject });
  });
}

/** A new turn's queue, sent once the turn's I/O callbacks have run. */
function startTurn(ctx: ClaimCtx): Pending[] {
  const queue: Pending[] = [];
  waiting.set(ctx, queue);
  setImmediate(() => {
    waiting.delete(ctx);
    for (let i = 0; i < queue.length; i += MAX_CLAIMS) void claimAll(ctx, queue.slice(i, i + MAX_CLAIMS));
  });
  return queue;
}

/** A card and its full text live `RETENTION_DAYS` (issue 14); closing a ticket restarts the clock. */
const cardTtlSeconds = (ctx: ClaimCtx) => Math.ceil(ctx.config.RETENTION_DAYS * 24 * 3600);

/** Longer than every sender's redelivery window: Feishu retries ~7 h, GitHub redelivers by hand up to 3 days. */
export const DEDUPE_TTL_SECONDS = 4 * 24 * 3600;

async function claimAll(ctx: ClaimCtx, batch: Pending[]): Promise<void> {
  const { keys } = ctx;
  const ttl = cardTtlSeconds(ctx);
  const newest = Math.max(...batch.map((p) => p.claim.receivedAt));
  const keyList = [keys.cardsByTime(), keys.cardsIntake(), keys.cardsIntakeSignal(), keys.cardsIntakeTrace()];
  const args: (string | number)[] = [
    DEDUPE_TTL_SECONDS,
    ttl,
    newest - ttl * 1000,
    ctx.config.CARDS_INDEX_MAX,
  ];
  for (const { claim: c } of batch) {
    keyList.push(
      keys.seen(c.source, c.eventId),
      keys.card(c.cardId),
      keys.cardFull(c.cardId),
      keys.seenObject(c.source, c.replayKey ?? '-'),
    );
    args.push(
      c.cardId,
      c.json,
      c.fullText,
      c.receivedAt,
      c.replayKey ? '1' : '0',
      c.intakeAt,
      c.signal ? '1' : '0',
      c.trace,
    );
  }
  try {
    const states = (await runScript(ctx.redis, CLAIM_AND_STORE, keyList, args)) as ClaimState[];
    batch.forEach((p, i) => {
      const state = states[i];
      if (state === undefined) p.reject(new Error('claim script: no state for a card'));
      else p.resolve(state);
    });
  } catch (err) {
    for (const p of batch) p.reject(err);
  }
}
