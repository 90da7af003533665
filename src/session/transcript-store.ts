import type { ChainableCommander } from 'ioredis';
import type { z } from 'zod';
import type { Ctx } from '../context.ts';
import type { DailyCounts } from '../stats/daily-counts.ts';
import { addDailyCounts } from '../stats/daily-stats.ts';
import { currentFence } from '../store/fence.ts';
import { parseRecord, readRecord } from '../store/parse-record.ts';
import type { StoreHandle } from '../store/store-handle.ts';
import type { ChatMessage, ToolCall } from './chat-message.ts';
import { ChatMessageSchema, ToolCallSchema } from './chat-message-schema.ts';
import { type ContextState, ContextStateSchema, freshContext } from './context/context-state.ts';
import type { ModelUsage } from './model-reply.ts';
import { noUsage, type SessionUsage, USAGE_FIELDS, USAGE_KEYS } from './session-usage.ts';
import { addStepRecord, type StepRecord } from './step-log.ts';
import { type ToolResult, ToolResultSchema } from './tool.ts';
import { type TurnState, TurnStateSchema } from './turn-state.ts';

/** What a step stores besides its messages (R-F3 revision, issue 12 usage, issue 17 step record). */
export interface StepExtras {
  revision?: number | undefined;
  usage?: ModelUsage | undefined;
  step?: StepRecord | undefined;
  /** What the step adds to its day's counters for the charts (issue 17: tokens by session kind). */
  daily?: DailyCounts | undefined;
  /** The caller's own writes that land with the step (issue 33: a ticket's budget used). */
  also?: StepWrite | undefined;
}

/**
 * Writes of another owner's records added to a step's MULTI (issue 33), built by that owner
 * (`addRequestUsage`): they land with the step or not at all, so a resumed turn never repeats them.
 */
export type StepWrite = (m: ChainableCommander) => void;

/** A session's conversation as stored: messages, completed steps, the turn, tool results by key. */
export interface Transcript {
  messages: ChatMessage[];
  step: number;
  turn: TurnState | undefined;
  results: Map<string, ToolResult>;
  /** How the model's view of the messages is compacted (R-H2); the messages themselves are never rewritten. */
  context: ContextState;
  /** Calls started early, while their answer streamed (issue 18), whose result is not recorded yet. */
  early: Map<string, ToolCall>;
}

/**
 * The transcript in Redis: a list of messages (`transcript`) and a hash beside it
 * (`transcriptMeta`: `step`, `turn`, `result:<call key>`, `early:<call key>`, `context`). Every write is one MULTI that appends
 * and bumps the step together, so a worker killed at any instant leaves a transcript that ends at
 * a whole step and never a tool result without its message.
 */
export function createTranscriptStore(store: StoreHandle & Partial<Pick<Ctx, 'log'>> & TranscriptLifetime) {
  const { redis, keys } = store;
  // Issue 46: the turn's fence comes with the async context it runs in (`withFence`), as it does
  // to every other effect of the turn; a store made outside any fenced turn writes unfenced.
  const fence = currentFence();
  const log: Partial<Pick<Ctx, 'log'>> = store.log ? { log: store.log } : {};
  const list = (id: string) => keys.transcript(id);
  const meta = (id: string) => keys.transcriptMeta(id);
  const ttl = store.transcriptTtlSeconds;
  /** Issue 31: a session that expires on its own gets its TTL again with every write, in its MULTI. */
  const expire = (m: ChainableCommander, id: string): ChainableCommander => {
    if (ttl === undefined) return m;
    for (const key of [list(id), meta(id), keys.sessionRevisions(id), keys.sessionSteps(id)])
      m.expire(key, ttl);
    return m;
  };
  /**
   * Issue 46: one write as one MULTI — under the turn's fence when it has one, so a worker that
   * lost the turn records nothing more (`FencedError`); what it recorded before stays.
   */
  const write = async (id: string, build: (m: ChainableCommander) => void, ttl = true): Promise<void> => {
    const all = (m: ChainableCommander) => {
      build(m);
      if (ttl) expire(m, id);
    };
    if (fence) {
      await fence.exec(all);
      return;
    }
    const m = redis.multi();
    all(m);
    await m.exec();
  };

  /**
   * The whole transcript, every part read through its schema (issue 20). A part that fails throws
   * `StoredRecordError` (logged with its key): a message left out would shift the indices that
   * call keys are built from, and a result left out would run its tool again.
   */
  async function load(sessionId: string): Promise<Transcript> {
    const [raw, fields] = await Promise.all([
      redis.lrange(list(sessionId), 0, -1),
      redis.hgetall(meta(sessionId)),
    ]);
    const field = <S extends z.ZodType>(schema: S, value: string, name: string) =>
      parseRecord(log, schema, value, `${meta(sessionId)} ${name}`);
    const results = new Map<string, ToolResult>();
    const early = new Map<string, ToolCall>();
    for (const [name, value] of Object.entries(fields)) {
      if (name.startsWith('result:'))
        results.set(name.slice('result:'.length), field(ToolResultSchema, value, name));
      else if (name.startsWith('early:'))
        early.set(name.slice('early:'.length), field(ToolCallSchema, value, name));
    }
    return {
      messages: raw.map((m, i) => parseRecord(log, ChatMessageSchema, m, `${list(sessionId)} [${i}]`)),
      step: Number(fields.step ?? 0),
      turn: fields.turn ? field(TurnStateSchema, fields.turn, 'turn') : undefined,
      results,
      context: fields.context ? field(ContextStateSchema, fields.context, 'context') : freshContext(),
      early,
    };
  }

  /**
   * Appends messages and saves the turn's state as one step; `revision`, when given, is the prompt
   * settings revision the step's model request used (R-F3), `usage` what that request cost,
   * added to the session's totals (issue 12: cache hits per session), and `step` its record for
   * the trajectory (issue 17) — all in the same round trip, so a resumed turn never counts a
   * request twice.
   */
  async function appendStep(
    sessionId: string,
    messages: readonly ChatMessage[],
    turn: TurnState,
    extras: StepExtras = {},
  ): Promise<void> {
    const { revision, usage, step, daily, also } = extras;
    await write(sessionId, (m) => {
      if (messages.length) m.rpush(list(sessionId), ...messages.map((x) => JSON.stringify(x)));
      m.hset(meta(sessionId), 'turn', JSON.stringify(turn));
      m.hincrby(meta(sessionId), 'step', 1);
      if (revision !== undefined) m.zadd(keys.sessionRevisions(sessionId), 'NX', revision, String(revision));
      if (usage) addUsage(m, meta(sessionId), usage);
      if (step) addStepRecord(m, keys, sessionId, step);
      if (daily) addDailyCounts(m, keys, daily);
      also?.(m);
    });
  }

  /** Records a tool call's result and appends its tool message as one step, with its record. */
  async function recordToolResult(
    sessionId: string,
    callKey: string,
    result: ToolResult,
    message: ChatMessage,
    step?: StepRecord,
  ): Promise<void> {
    await write(sessionId, (m) => {
      m.hset(meta(sessionId), `result:${callKey}`, JSON.stringify(result))
        .hdel(meta(sessionId), `early:${callKey}`)
        .rpush(list(sessionId), JSON.stringify(message))
        .hincrby(meta(sessionId), 'step', 1);
      if (step) addStepRecord(m, keys, sessionId, step);
    });
  }

  /**
   * Notes a call about to run early, before its answer is stored (issue 18), so a turn resumed
   * after a crash can finish it under the same key (`early:<call key>`, gone once its result is).
   */
  async function noteEarlyCall(sessionId: string, callKey: string, call: ToolCall): Promise<void> {
    await write(sessionId, (m) => m.hset(meta(sessionId), `early:${callKey}`, JSON.stringify(call)), false);
  }

  async function clearEarlyCalls(sessionId: string, callKeys: string[]): Promise<void> {
    if (callKeys.length)
      await write(sessionId, (m) => m.hdel(meta(sessionId), ...callKeys.map((k) => `early:${k}`)), false);
  }

  /** Saves the turn's state; `step` records how it ended and `daily` its duration (issue 17). */
  async function saveTurn(
    sessionId: string,
    turn: TurnState,
    step?: StepRecord,
    daily?: DailyCounts,
  ): Promise<void> {
    await write(sessionId, (m) => {
      m.hset(meta(sessionId), 'turn', JSON.stringify(turn));
      if (step) addStepRecord(m, keys, sessionId, step);
      if (daily) addDailyCounts(m, keys, daily);
    });
  }

  /**
   * Saves a compaction (R-H2) with the turn's state in one MULTI, and the summarising call's usage
   * (added to the session's totals): a resumed turn sees all or none, so it never compacts twice,
   * counts the call twice, nor loses a compaction it sends requests under. The messages are
   * untouched: the state only marks where the model's view cuts.
   */
  async function saveContext(
    sessionId: string,
    context: ContextState,
    turn: TurnState,
    usage?: ModelUsage,
    step?: StepRecord,
    daily?: DailyCounts,
    also?: StepWrite,
  ): Promise<void> {
    await write(sessionId, (m) => {
      m.hset(meta(sessionId), 'context', JSON.stringify(context));
      m.hset(meta(sessionId), 'turn', JSON.stringify(turn));
      if (usage) addUsage(m, meta(sessionId), usage);
      if (step) addStepRecord(m, keys, sessionId, step);
      if (daily) addDailyCounts(m, keys, daily);
      also?.(m);
    });
  }

  return { load, appendStep, recordToolResult, noteEarlyCall, clearEarlyCalls, saveTurn, saveContext };
}

/**
 * Issue 31: how long a session's transcript outlives its last write. Unset (executors), it lives
 * until its ticket's retention sets one (`ticket-keys.ts`); a main turn's session, which no
 * ticket owns, sets `RETENTION_DAYS`.
 */
export interface TranscriptLifetime {
  transcriptTtlSeconds?: number | undefined;
}

/** Adds one request's usage to the session's totals, inside the caller's MULTI. */
function addUsage(m: ChainableCommander, key: string, usage: ModelUsage): void {
  m.hincrby(key, USAGE_FIELDS.requests, 1);
  m.hincrby(key, USAGE_FIELDS.promptTokens, usage.promptTokens);
  m.hincrby(key, USAGE_FIELDS.completionTokens, usage.completionTokens);
  m.hincrby(key, USAGE_FIELDS.cacheHitTokens, usage.cacheHitTokens);
}

export type TranscriptStore = ReturnType<typeof createTranscriptStore>;

/** One session's totals, recorded with each model step (`appendStep`); zeros for a session without any. */
export async function sessionUsage(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  sessionId: string,
): Promise<SessionUsage> {
  const values = await ctx.redis.hmget(
    ctx.keys.transcriptMeta(sessionId),
    ...USAGE_KEYS.map((f) => USAGE_FIELDS[f]),
  );
  const usage = noUsage();
  USAGE_KEYS.forEach((f, i) => {
    usage[f] = Number(values[i] ?? 0);
  });
  return usage;
}

/**
 * What the panel shows of a session's transcript without loading it: its latest turn (as stored,
 * for people), how many messages it holds, and its compaction state (R-H2) read through its schema.
 */
export async function transcriptOverview(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  sessionId: string,
): Promise<{ lastTurn: unknown; length: number; context: ContextState | null }> {
  const meta = ctx.keys.transcriptMeta(sessionId);
  const [turn, length, context] = await Promise.all([
    ctx.redis.hget(meta, 'turn'),
    ctx.redis.llen(ctx.keys.transcript(sessionId)),
    ctx.redis.hget(meta, 'context'),
  ]);
  const state = context ? readRecord(ctx, ContextStateSchema, context, `${meta} context`) : undefined;
  return {
    lastTurn: turn ? JSON.parse(turn) : null,
    length,
    context: state?.ok ? state.value : null,
  };
}

/** A session's transcript, for readers that are not running it (the panel's trajectory, issue 17). */
export function readTranscript(
  ctx: StoreHandle & Partial<Pick<Ctx, 'log'>>,
  sessionId: string,
): Promise<Transcript> {
  return createTranscriptStore(ctx).load(sessionId);
}

/**
 * Whether the call under `callKey` has its result recorded: its answer was stored and the result
 * went into the transcript, so every later request of the session showed it to the model. A call
 * that ran early in an answer that was never stored (issue 18) has none.
 */
export async function hasToolResult(ctx: StoreHandle, sessionId: string, callKey: string): Promise<boolean> {
  return (await ctx.redis.hexists(ctx.keys.transcriptMeta(sessionId), `result:${callKey}`)) === 1;
}
