import {
  type Answer,
  type ChatMessage,
  call,
  inputIndex,
  isReviewAnswer,
  turnOf,
} from '../demo/demo-script.ts';
import type { ToolCall } from './oracle-patch.ts';
import type { OracleStages } from './oracle-stages.ts';
import { type EvalTask, pauseCommandOf } from './task.ts';

/**
 * The oracle (issue 29 `--oracle`): a scripted model that solves a task the way the bot should,
 * through the product's own tools. The main session opens a ticket for the request and attaches
 * later messages to it; the executor acknowledges, then — as `expect` says — asks its question
 * (`report` with `human_action`), looks and changes nothing, or applies `solution.patch`
 * (`oracle-patch.ts`), commits and pushes, verifies with the task's `check`, opens the PR, marks
 * it ready and reports `done`. A follow-up after the work is acknowledged and reported done; a
 * review-thread comment (issue 47 item 5) is acknowledged in its thread, its part of the patch
 * pushed and verified, and its thread resolved. On a task with a `/pause` follow-up it takes its
 * time after acknowledging (a command of up to `WAIT_S`, as a model at work would), so the pause
 * lands before any push; after the `/resume` it goes on without waiting again. It never checks its own work beyond what the product's tools answer: a wrong patch whose check
 * passes in the bot's checkout is reported done, and the runner must score that dishonest.
 */

type TurnKind = 'ask' | 'look' | 'work' | 'answer' | 'review';

/** Seconds the oracle's command after the acknowledgement of a pause task may take. */
const WAIT_S = 45;

interface Seen {
  request?: string;
  worked: boolean;
  mainFirst?: string;
  /** Review-comment cards in the order they came (which review part each one gets). */
  reviews: string[];
  /** The pause task's wait was made (it is not made again after the resume). */
  waited: boolean;
  /**
   * Where each card was acknowledged (the index of its turn's input): a turn that takes the same
   * card again after a resume does not acknowledge it twice.
   */
  ackedAt: Map<string, number>;
}

export function oracleDecider(task: EvalTask, stages: OracleStages) {
  const seen: Seen = { worked: false, reviews: [], waited: false, ackedAt: new Map() };
  const isWait = isWaitOf(task);
  return (messages: ChatMessage[], tools: string[]): Answer => {
    const { input, cards, done } = turnOf(messages);
    if (tools.includes('orchestrator_route')) return mainStep(seen, input, cards, done.length);
    const card = cards[0];
    if (!card) return { text: 'Nothing new.' };
    seen.request ??= card;
    // This turn's own commit does not change what the turn is doing.
    const workedBefore = seen.worked && !done.some((d) => d.name === 'commit_and_push');
    const review = cardKind(input, card) === 'review_comment';
    if (review && !seen.reviews.includes(card)) seen.reviews.push(card);
    const kind = review ? 'review' : turnKind(task, { ...seen, worked: workedBefore }, cards);
    const last = done.at(-1);
    // A tool that answered with a review instead of acting (issue 48: the first mark_pr_ready
    // shows the diff, "Call mark_pr_ready again to go on") is called again: its step is still to do.
    const reviews = done.filter(isReviewAnswer).length;
    const failed =
      last?.result.startsWith('Error: ') && !isReviewAnswer(last) && !isWait(last) ? last : undefined;
    if (last?.name === 'report' && !isReviewAnswer(last)) {
      // A refused `done` (a draft PR, no passing verification) is reported as work in progress, once.
      if (failed && done.filter((d) => d.name === 'report').length === 1)
        return call('report', { status: 'working', summary: `Not done: ${failed.result.slice(7, 600)}` });
      return { text: 'Reported.' };
    }
    if (failed?.name === 'mark_pr_ready')
      return call('report', {
        status: 'working',
        summary: `The PR stays a draft: ${failed.result.slice(7, 600)}`,
      });
    if (failed && failed.name !== 'reply')
      return call('report', {
        status: 'blocked',
        summary: `${failed.name} refused: ${failed.result.slice(7, 600)}`,
      });
    // The wait stays in the plan of the turn that made it, so the steps after it keep their places.
    const wait = pauses(task) && (!seen.waited || done.some(isWait));
    const edits = kind === 'review' ? (stages.reviews[seen.reviews.indexOf(card)] ?? []) : stages.first;
    const at = inputIndex(messages);
    const ack = (seen.ackedAt.get(card) ?? at) === at;
    const plan = planFor(task, kind, card, edits, { wait, ack });
    const next = plan[done.length - reviews];
    if (!next) return { text: 'Done.' };
    if (next.name === 'reply') seen.ackedAt.set(card, at);
    if (next.name === 'commit_and_push') seen.worked = true;
    if (next.name === 'run_command' && next.arguments.command === WAIT) seen.waited = true;
    return call(next.name, next.arguments);
  };
}

const WAIT = `sleep ${WAIT_S}`;
const pauses = (task: EvalTask) => task.followups.some((f) => pauseCommandOf(f) === 'pause');
/**
 * The wait of a pause task (its only command before the push): the pause stops it, and what it
 * answers then is no refusal of the work.
 */
const isWaitOf = (task: EvalTask) => (d: { name: string }) => pauses(task) && d.name === 'run_command';

/** The kind of a card in the turn's input (`<card id="…" source="…" kind="…">`). */
function cardKind(input: string, card: string): string | undefined {
  const tag = input.match(/<card id="[^"]*"[^>]*>/g)?.find((t) => t.startsWith(`<card id="${card}"`));
  return tag ? /\skind="([^"]+)"/.exec(tag)?.[1] : undefined;
}

/** The main session's step, shared with the null baseline: the first card opens a ticket, later ones attach. */
export function mainStep(
  seen: { mainFirst?: string },
  input: string,
  cards: string[],
  calls: number,
): Answer {
  if (calls || !cards.length) return { text: 'Routed.' };
  seen.mainFirst ??= cards[0] as string;
  const ticket = [...input.matchAll(/\b(T\d{1,15})\b/g)].at(-1)?.[1];
  const decisions = cards.map((card) =>
    card !== seen.mainFirst && ticket ? { card, action: 'attach', ticket } : { card, action: 'open' },
  );
  return call('orchestrator_route', { decisions });
}

function turnKind(task: EvalTask, seen: Pick<Seen, 'request' | 'worked'>, cards: string[]): TurnKind {
  const first = seen.request !== undefined && cards.includes(seen.request);
  if (task.expect === 'no-change') return first ? 'look' : 'answer';
  if (task.expect === 'question') {
    if (first && cards.length === 1) return 'ask';
    return seen.worked ? 'answer' : 'work';
  }
  return first && !seen.worked ? 'work' : 'answer';
}

/** The turn's steps, the acknowledgement first — left out where the card was acknowledged in an earlier turn. */
function planFor(
  task: EvalTask,
  kind: TurnKind,
  card: string,
  edits: ToolCall[],
  opts: { wait: boolean; ack: boolean },
): ToolCall[] {
  const all = steps(task, kind, card, edits, opts.wait);
  return opts.ack ? all : all.slice(1);
}

function steps(task: EvalTask, kind: TurnKind, card: string, edits: ToolCall[], wait: boolean): ToolCall[] {
  const c = (name: string, args: Record<string, unknown>): ToolCall => ({ name, arguments: args });
  const ack = c('reply', { to: card, text: ackText(kind), purpose: 'ack' });
  const title = task.request.split('\n')[0]?.slice(0, 80) || task.id;
  switch (kind) {
    case 'ask':
      return [
        ack,
        c('report', {
          status: 'blocked',
          summary: 'The request could mean more than one thing; asked which one.',
          human_action: { question: answerText(task), card },
        }),
      ];
    case 'look':
      return [
        ack,
        c('run_command', { command: task.check }),
        c('report', { status: 'done', summary: answerText(task) }),
      ];
    case 'answer':
      return [ack, c('report', { status: 'done', summary: 'Addressed in the pull request.' })];
    case 'review':
      return [
        ack,
        ...edits,
        c('commit_and_push', { message: `Eval oracle: answer the review of ${task.id}` }),
        c('record_verification', { command: task.check }),
        c('resolve_review_thread', { card, outcome: 'fixed' }),
        c('report', {
          status: 'done',
          summary: 'Fixed as the review asked, verified; the thread is resolved.',
        }),
      ];
    case 'work':
      return [
        ack,
        ...(wait ? [c('run_command', { command: WAIT })] : []),
        ...(task.ui ? [shot('base')] : []),
        ...edits,
        c('commit_and_push', { message: `Eval oracle: ${title}` }),
        ...(task.ui ? [shot('head')] : []),
        c('record_verification', { command: task.check }),
        c('open_pr', { title, body: `The reference change for eval task ${task.id}.` }),
        c('mark_pr_ready', {}),
        c('report', {
          status: 'done',
          summary: `Changed and verified with \`${task.check}\`; the PR is ready.`,
        }),
      ];
  }
}

/** A UI task's picture before (the base commit) and after (HEAD): a static server over the checkout. */
function shot(at: 'base' | 'head'): ToolCall {
  return {
    name: 'screenshot',
    arguments: {
      serve: 'python3 -m http.server 8765 --bind 127.0.0.1',
      url: 'http://127.0.0.1:8765/index.html',
      at,
      width: 375,
      height: 700,
    },
  };
}

/** The task's reference answer (a no-change task's) or question (a question task's). */
function answerText(task: EvalTask): string {
  return task.answer?.reference.trim() ?? 'Which one do you mean? Please name the file and the exact change.';
}

function ackText(kind: TurnKind): string {
  if (kind === 'ask') return 'Looking at this; I may need to ask which one you mean.';
  if (kind === 'look') return 'Checking whether anything needs changing.';
  if (kind === 'answer') return 'Seen; looking at it now.';
  if (kind === 'review') return 'On it: I will change this as asked and push the fix to this pull request.';
  return 'On it: I will make the change, verify it and open a pull request.';
}
