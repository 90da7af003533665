import type { ChainableCommander } from 'ioredis';
import { z } from 'zod';
import type { Ctx } from '../context.ts';
import type { Keys } from '../store/keys.ts';
import { readRecord } from '../store/parse-record.ts';
import type { StatusAnswer, StatusCall, StatusQuestion } from './status-model.ts';

type FactsCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of a ticket's status facts (issue 20), the hash `ticketStatus` the hooks record and
 * the status message shows: the current `step`, the open `question` and the `answer` a button
 * gave it (JSON, read through zod), `doneAt`, and the usage counters. Issue 33: the call under way
 * beside the step (`stepDetail`, `stepAt`, `stepEndedAt` once it returned), and the counters
 * grow with every model request (`addRequestUsage`, in the step's MULTI), not at the turn's end.
 */

const StatusAnswerSchema = z.object({
  choice: z.number(),
  text: z.string(),
  by: z.string(),
  at: z.number(),
  askedAt: z.number(),
}) satisfies z.ZodType<StatusAnswer>;

const StatusQuestionSchema = z.object({
  question: z.string(),
  choices: z.array(z.string()),
  turnId: z.string(),
  askedIn: z.enum(['status', 'reply']).optional(),
  at: z.number(),
});

/** Everything recorded for the status message; a question or answer failing its schema is left out (logged). */
export interface StatusFacts {
  step?: string;
  /** Issue 33: the tool call behind `step`, with when it started (and ended). */
  call?: Omit<StatusCall, 'ms' | 'idleMs'>;
  question?: StatusQuestion;
  answer?: StatusAnswer;
  doneAt?: number;
  modelRequests: number;
  tokens: number;
}

function readJson<T>(
  ctx: Pick<Ctx, 'log'>,
  schema: z.ZodType<T>,
  raw: string | null | undefined,
  key: string,
) {
  if (!raw) return undefined;
  const r = readRecord(ctx, schema, raw, key);
  return r.ok ? r.value : undefined;
}

function readQuestion(ctx: Pick<Ctx, 'log'>, raw: string | null | undefined, key: string) {
  const q = readJson(ctx, StatusQuestionSchema, raw, `${key} question`);
  if (!q) return undefined;
  const { askedIn, ...rest } = q;
  const question: StatusQuestion = askedIn ? { ...rest, askedIn } : rest;
  return question;
}

export async function readStatusFacts(
  ctx: FactsCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<StatusFacts> {
  const key = ctx.keys.ticketStatus(ticketId);
  const h = await ctx.redis.hgetall(key);
  const question = readQuestion(ctx, h.question, key);
  const answer = readJson(ctx, StatusAnswerSchema, h.answer, `${key} answer`);
  const call = h.step ? callOf(h.step, h) : undefined;
  return {
    ...(h.step ? { step: h.step } : {}),
    ...(call ? { call } : {}),
    ...(question ? { question } : {}),
    ...(answer ? { answer } : {}),
    ...(Number(h.doneAt) ? { doneAt: Number(h.doneAt) } : {}),
    modelRequests: Number(h.modelRequests) || 0,
    tokens: Number(h.tokens) || 0,
  };
}

/** The call recorded with the step; a step written before issue 33 has none (no start time). */
function callOf(tool: string, h: Record<string, string>): StatusFacts['call'] {
  const startedAt = Number(h.stepAt);
  if (!startedAt) return undefined;
  const endedAt = Number(h.stepEndedAt);
  return {
    tool,
    ...(h.stepDetail ? { detail: h.stepDetail } : {}),
    startedAt,
    ...(endedAt ? { endedAt } : {}),
  };
}

/** The question now open (or answered), without the rest. */
export async function readQuestionFacts(
  ctx: FactsCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<{ question?: StatusQuestion; answer?: StatusAnswer }> {
  const key = ctx.keys.ticketStatus(ticketId);
  const [q, a] = await ctx.redis.hmget(key, 'question', 'answer');
  const question = readQuestion(ctx, q, key);
  const answer = readJson(ctx, StatusAnswerSchema, a, `${key} answer`);
  return { ...(question ? { question } : {}), ...(answer ? { answer } : {}) };
}

/** The call starting now is the current step (issue 33: its tool, a few words of it, its start). */
export async function setStep(
  ctx: FactsCtx,
  ticketId: string,
  step: string,
  call: { detail?: string; at: number },
): Promise<void> {
  const key = ctx.keys.ticketStatus(ticketId);
  const tx = ctx.redis.multi().hset(key, 'step', step, 'stepAt', String(call.at)).hdel(key, 'stepEndedAt');
  if (call.detail) tx.hset(key, 'stepDetail', call.detail);
  else tx.hdel(key, 'stepDetail');
  await tx.exec();
}

/** The current step's call returned at `at` (the step stays, so the status still names it). */
export async function endStep(ctx: FactsCtx, ticketId: string, at: number): Promise<void> {
  await ctx.redis.hset(ctx.keys.ticketStatus(ticketId), 'stepEndedAt', String(at));
}

/**
 * Issue 33: one model request's usage added to the ticket's budget used, inside the MULTI that
 * stores the request's answer (the transcript's `appendStep`), so the figure grows after every
 * request and a resumed turn never counts one twice.
 */
export function addRequestUsage(
  m: ChainableCommander,
  keys: Keys,
  ticketId: string,
  usage: { modelRequests: number; tokens: number },
): void {
  const key = keys.ticketStatus(ticketId);
  m.hincrby(key, 'modelRequests', usage.modelRequests).hincrby(key, 'tokens', usage.tokens);
}

/** A new question replaces any earlier one and its answer (one MULTI: never a new question with an old answer). */
export async function openQuestion(ctx: FactsCtx, ticketId: string, q: StatusQuestion): Promise<void> {
  const key = ctx.keys.ticketStatus(ticketId);
  await ctx.redis.multi().hset(key, 'question', JSON.stringify(q)).hdel(key, 'answer').exec();
}

export async function closeQuestion(ctx: FactsCtx, ticketId: string): Promise<void> {
  await ctx.redis.hdel(ctx.keys.ticketStatus(ticketId), 'question', 'answer');
}

/** The first answer wins (HSETNX, so two presses can't both); true when this one did. */
export async function answerQuestion(ctx: FactsCtx, ticketId: string, a: StatusAnswer): Promise<boolean> {
  return (await ctx.redis.hsetnx(ctx.keys.ticketStatus(ticketId), 'answer', JSON.stringify(a))) === 1;
}

/** `done` stops the clock at `at`; any other report starts it again (undefined). */
export async function setDoneAt(ctx: FactsCtx, ticketId: string, at: number | undefined): Promise<void> {
  const key = ctx.keys.ticketStatus(ticketId);
  if (at === undefined) await ctx.redis.hdel(key, 'doneAt');
  else await ctx.redis.hset(key, 'doneAt', String(at));
}

/** An idle executor has no current step, nor a call under way. */
export async function clearStep(ctx: FactsCtx, ticketId: string): Promise<void> {
  await ctx.redis.hdel(ctx.keys.ticketStatus(ticketId), 'step', 'stepDetail', 'stepAt', 'stepEndedAt');
}
