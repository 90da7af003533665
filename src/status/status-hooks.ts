import type { Ctx } from '../context.ts';
import type { AnyTool } from '../session/tool.ts';
import type { TurnOutcome } from '../session/turn-outcome.ts';
import type { TurnHooks } from '../session/turn-run.ts';
import { markStatusDirty } from './schedule-status.ts';
import {
  addRequestUsage,
  clearStep,
  closeQuestion,
  endStep,
  openQuestion,
  readQuestionFacts,
  setDoneAt,
  setStep,
} from './status-facts.ts';
import type { StatusQuestion } from './status-model.ts';

type HookCtx = Pick<Ctx, 'redis' | 'keys' | 'queues' | 'now' | 'log'>;

/** A ticket opened: its status message is posted at once (issue 9). */
export const statusOpened = (ctx: HookCtx, ticketId: string): Promise<void> =>
  markStatusDirty(ctx, ticketId, 0);

/** Something the status shows changed elsewhere (a pause, a resume, a ticket state). */
export const statusChanged = (ctx: HookCtx, ticketId: string): Promise<void> =>
  markStatusDirty(ctx, ticketId);

/** The arguments that say what a call does, first found first (issue 33). */
const DETAIL_ARGS = ['command', 'path', 'pattern', 'query', 'url', 'title'] as const;
const DETAIL_CAP = 120;

/** A few words of a call's arguments for the panel: its command, path or pattern, on one line. */
export function callDetail(args: unknown): string | undefined {
  if (!args || typeof args !== 'object') return undefined;
  const record = args as Record<string, unknown>;
  const value = DETAIL_ARGS.map((k) => record[k]).find((v) => typeof v === 'string' && v.trim());
  if (typeof value !== 'string') return undefined;
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > DETAIL_CAP ? `${line.slice(0, DETAIL_CAP - 1)}…` : line;
}

/** Records the executor's current step from the tool it is about to run, with its call (issue 33). */
export async function noteStep(ctx: HookCtx, ticketId: string, tool: string, args?: unknown): Promise<void> {
  const detail = callDetail(args);
  await setStep(ctx, ticketId, tool, { at: ctx.now(), ...(detail ? { detail } : {}) });
  await markStatusDirty(ctx, ticketId);
}

/**
 * An executor turn's tools, each noting itself as the status's current step when it runs (after
 * the turn's gates let the call through), so the status card says what the executor is doing;
 * issue 33: the call's start and its return are noted too, so the panel shows how long it runs.
 */
export function withStatusSteps(ctx: HookCtx, ticketId: string, tools: readonly AnyTool[]): AnyTool[] {
  return tools.map((tool) => ({
    ...tool,
    run: async (args, call) => {
      await noteStep(ctx, ticketId, tool.name, args);
      const result = await tool.run(args, call);
      await endStep(ctx, ticketId, ctx.now());
      return result;
    },
  }));
}

/**
 * Issue 33: a turn's model requests add to the ticket's budget used as each one is stored (in its
 * MULTI), and the status redraws with the new figure, instead of all at the turn's end.
 */
export function budgetHooks(
  ctx: HookCtx,
  ticketId: string,
): Required<Pick<TurnHooks, 'countUsage' | 'afterModelRequest'>> {
  return {
    countUsage: (usage) => (m) => addRequestUsage(m, ctx.keys, ticketId, usage),
    afterModelRequest: () => markStatusDirty(ctx, ticketId),
  };
}

export interface ReportNote {
  status: 'working' | 'done' | 'blocked';
  turnId: string;
  human_action?: { question: string; choices?: string[] | undefined } | undefined;
  /** Where the question was asked (issue 15: once, either here or as a reply). */
  askedIn?: 'status' | 'reply';
}

/**
 * A report (R-C5): a question opens (answer buttons appear) and replaces any earlier one; a report
 * of a later turn without a question closes an unanswered one, since the executor went on; `done`
 * closes it too and stops the clock. An answered question stays to show the choice.
 */
export async function noteReport(ctx: HookCtx, ticketId: string, r: ReportNote): Promise<void> {
  if (r.human_action) {
    const q: StatusQuestion = {
      question: r.human_action.question,
      choices: r.human_action.choices ?? [],
      turnId: r.turnId,
      at: ctx.now(),
      ...(r.askedIn ? { askedIn: r.askedIn } : {}),
    };
    await openQuestion(ctx, ticketId, q);
  } else {
    // An answered question stays, so the card shows what was chosen; only an open one closes.
    const { question: asked, answer } = await readQuestionFacts(ctx, ticketId);
    const answered = answer ? answer.askedAt === asked?.at : false;
    if (asked && !answered && (r.status === 'done' || asked.turnId !== r.turnId))
      await closeQuestion(ctx, ticketId);
  }
  await setDoneAt(ctx, ticketId, r.status === 'done' ? ctx.now() : undefined);
  await markStatusDirty(ctx, ticketId);
}

/**
 * A turn settled: an idle executor has no current step. Its usage is already in the budget shown,
 * added request by request (`budgetHooks`, issue 33).
 */
export async function noteTurnSettled(ctx: HookCtx, ticketId: string, outcome: TurnOutcome): Promise<void> {
  if (outcome.kind !== 'stopped') await clearStep(ctx, ticketId);
  await markStatusDirty(ctx, ticketId);
}
