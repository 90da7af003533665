import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import type { StatusAnswer, StatusQuestion } from './status-model.ts';

type FactsCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of a ticket's status facts (issue 20), the hash `ticketStatus` the hooks record and
 * the status message shows: the current `step`, the open `question` and the `answer` a button
 * gave it (JSON, read through zod), `doneAt`, and the usage counters.
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
  return {
    ...(h.step ? { step: h.step } : {}),
    ...(question ? { question } : {}),
    ...(answer ? { answer } : {}),
    ...(Number(h.doneAt) ? { doneAt: Number(h.doneAt) } : {}),
    modelRequests: Number(h.modelRequests) || 0,
    tokens: Number(h.tokens) || 0,
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

export async function setStep(ctx: FactsCtx, ticketId: string, step: string): Promise<void> {
  await ctx.redis.hset(ctx.keys.ticketStatus(ticketId), 'step', step);
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

/** A settled turn's usage adds to the totals; `idle` also clears the current step (one MULTI). */
export async function addTurnUsage(
  ctx: FactsCtx,
  ticketId: string,
  usage: { modelRequests: number; tokens: number },
  idle: boolean,
): Promise<void> {
  const key = ctx.keys.ticketStatus(ticketId);
  const tx = ctx.redis
    .multi()
    .hincrby(key, 'modelRequests', usage.modelRequests)
    .hincrby(key, 'tokens', usage.tokens);
  if (idle) tx.hdel(key, 'step');
  await tx.exec();
}
