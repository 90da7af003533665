import type { Ctx } from '../context.ts';
import { runScript, script } from '../store/run-script.ts';
import { retentionSeconds } from './growth-bounds.ts';

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
  /** Issue 31: seconds the card and its full text live (short for a card that requests nothing). */
  ttlSeconds: number;
  /** Issue 31: the author and place scopes the card counts against (`growth-bounds.ts`). */
  rate: { author?: string; place?: string };
  /** Issue 31: the edited object whose newest card alone keeps a full text. */
  textObject?: string | undefined;
}

/**
 * `new`, `stored`, `queued` (the delivery's claim), `replay:<card id>` (issue 14), or
 * `rate_limited:author` / `rate_limited:place` (issue 31: nothing was stored).
 */
export type ClaimState = string;

/** Cards claimed in one script call at most; a bigger turn's claims go out in several. */
const MAX_CLAIMS = 100;
const SHARED_KEYS = 5;
const KEYS_PER_CLAIM = 7;
const SHARED_ARGS = 8;
const ARGS_PER_CLAIM = 11;
/** Issue 31: the ingest rate limits count per minute. */
const RATE_WINDOW_SECONDS = 60;

/**
 * Claims deliveries, stores their cards and enters them in the intake, each card atomically, so a
 * crash never leaves a claimed delivery without its card (or a card whose delivery could be
 * claimed again), nor a stored card that nothing will route (issue 18). A card's intake entry is
 * scored by when a worker's intake pump may take it. The claim's value moves `stored` → `queued`
 * once the follow-up jobs exist (`intake.ts`); a redelivery that finds `stored` queues again,
 * which is safe because job ids are fixed. Issue 31 bounds what a card may add, in the same call:
 * a card over its author's or place's per-minute count is refused before anything is written (its
 * delivery stays unclaimed), and a newer card of an edited object deletes the previous card's full
 * text (that key is built from the full-text key's head and tail, as the attach script builds
 * reference keys: on a cluster the prefix's hash tag keeps it in the slot of the others).
 * One call covers every card of an event-loop turn: KEYS are the index, the intake, its signal,
 * its trace hash and the full-text key's head, then per card its claim, card, full text, replay
 * claim, author and place counters and object's text owner; ARGV the dedupe and retention TTLs,
 * the index's cut-off and cap, the full-text key's tail, the author and place limits and the rate
 * window, then per card its id, JSON, full text, time, replay flag, intake score, signal flag,
 * trace, TTL, rate flags (`a` author, `p` place) and object flag.
 */
const CLAIM_AND_STORE = script(`
local function over(key, limit)
  return tonumber(redis.call('GET', key) or '0') >= tonumber(limit)
end
local function count(key)
  if redis.call('INCR', key) == 1 then redis.call('EXPIRE', key, ARGV[8]) end
end
local out = {}
local added, signal = false, false
for i = 0, (#KEYS - ${SHARED_KEYS}) / ${KEYS_PER_CLAIM} - 1 do
  local k = ${SHARED_KEYS} + i * ${KEYS_PER_CLAIM}
  local a = ${SHARED_ARGS} + i * ${ARGS_PER_CLAIM}
  local id = ARGV[a + 1]
  local replay = ARGV[a + 5] == '1'
  local rate = ARGV[a + 10]
  local state = redis.call('GET', KEYS[k + 1])
  if not state and replay then
    local first = redis.call('GET', KEYS[k + 4])
    if first and first ~= id then state = 'replay:' .. first end
  end
  if not state then
    if string.find(rate, 'a', 1, true) and over(KEYS[k + 5], ARGV[6]) then state = 'rate_limited:author'
    elseif string.find(rate, 'p', 1, true) and over(KEYS[k + 6], ARGV[7]) then state = 'rate_limited:place' end
  end
  if not state then
    if replay then redis.call('SET', KEYS[k + 4], id, 'EX', ARGV[1]) end
    if string.find(rate, 'a', 1, true) then count(KEYS[k + 5]) end
    if string.find(rate, 'p', 1, true) then count(KEYS[k + 6]) end
    redis.call('SET', KEYS[k + 1], 'stored', 'EX', ARGV[1])
    redis.call('SET', KEYS[k + 2], ARGV[a + 2], 'EX', ARGV[a + 9])
    if ARGV[a + 3] ~= '' then redis.call('SET', KEYS[k + 3], ARGV[a + 3], 'EX', ARGV[a + 9]) end
    if ARGV[a + 11] == '1' then
      local prev = redis.call('GET', KEYS[k + 7])
      if prev and prev ~= id then redis.call('DEL', KEYS[5] .. prev .. ARGV[5]) end
      redis.call('SET', KEYS[k + 7], id, 'EX', ARGV[2])
    end
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

/** Longer than every sender's redelivery window: Feishu retries ~7 h, GitHub redelivers by hand up to 3 days. */
export const DEDUPE_TTL_SECONDS = 4 * 24 * 3600;

/** The full-text key of card `id` is `head + id + tail` (the claim script builds a superseded one). */
function fullTextKeyParts(keys: ClaimCtx['keys']): [string, string] {
  const [head = '', tail = ''] = keys.cardFull('\0').split('\0');
  return [head, tail];
}

async function claimAll(ctx: ClaimCtx, batch: Pending[]): Promise<void> {
  const { keys, config } = ctx;
  const ttl = retentionSeconds(config);
  const newest = Math.max(...batch.map((p) => p.claim.receivedAt));
  const [fullHead, fullTail] = fullTextKeyParts(keys);
  const keyList = [
    keys.cardsByTime(),
    keys.cardsIntake(),
    keys.cardsIntakeSignal(),
    keys.cardsIntakeTrace(),
    fullHead,
  ];
  const args: (string | number)[] = [
    DEDUPE_TTL_SECONDS,
    ttl,
    newest - ttl * 1000,
    config.CARDS_INDEX_MAX,
    fullTail,
    config.INGEST_RATE_PER_AUTHOR,
    config.INGEST_RATE_PER_REPO,
    RATE_WINDOW_SECONDS,
  ];
  for (const { claim: c } of batch) {
    const author = config.INGEST_RATE_PER_AUTHOR > 0 ? c.rate.author : undefined;
    const place = config.INGEST_RATE_PER_REPO > 0 ? c.rate.place : undefined;
    keyList.push(
      keys.seen(c.source, c.eventId),
      keys.card(c.cardId),
      keys.cardFull(c.cardId),
      keys.seenObject(c.source, c.replayKey ?? '-'),
      keys.ingestRate(author ?? '-'),
      keys.ingestRate(place ?? '-'),
      keys.cardObjectText(c.source, c.textObject ?? '-'),
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
      c.ttlSeconds,
      `${author ? 'a' : ''}${place ? 'p' : ''}`,
      c.textObject ? '1' : '0',
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
