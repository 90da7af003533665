import type { Ctx } from '../context.ts';
import type { AnyTool } from '../session/tool.ts';
import type { TurnOutcome } from '../session/turn-outcome.ts';
import { markStatusDirty } from './schedule-status.ts';
import {
  addTurnUsage,
  closeQuestion,
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

/** Records the executor's current step from the tool it is about to run. */
export async function noteStep(ctx: HookCtx, ticketId: string, tool: string): Promise<void> {
  await setStep(ctx, ticketId, tool);
  await markStatusDirty(ctx, ticketId);
}

/**
 * An executor turn's tools, each noting itself as the status's current step when it runs (after
 * the turn's gates let the call through), so the status card says what the executor is doing.
 */
export function withStatusSteps(ctx: HookCtx, ticketId: string, tools: readonly AnyTool[]): AnyTool[] {
  return tools.map((tool) => ({
    ...tool,
    run: async (args, call) => {
      await noteStep(ctx, ticketId, tool.name);
      return tool.run(args, call);
    },
  }));
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

/** A turn settled: its usage adds to the budget shown; an idle executor has no current step. */
export async function noteTurnSettled(ctx: HookCtx, ticketId: string, outcome: TurnOutcome): Promise<void> {
  await addTurnUsage(ctx, ticketId, outcome.usage, outcome.kind !== 'stopped');
  await markStatusDirty(ctx, ticketId);
}
