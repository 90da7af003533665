import { scratchReason } from '../executor/scratch-files.ts';
import { pushesOf, ticketPr } from '../executor/workspace/delivery-records.ts';
import { loadWorkspace } from '../executor/workspace/workspace.ts';
import type { TrajectoryStep } from '../session/trajectory/trajectory-step.ts';
import { usdOf } from '../stats/cost.ts';
import { reportsOf, type TicketReport } from '../tickets/reports.ts';
import { executorSessionId } from '../tickets/ticket-keys.ts';
import { listTickets } from '../tickets/ticket-store.ts';
import { type ShownStep, ticketTrajectory } from '../web/api/ticket-trajectory.ts';
import { stepsCostNanos } from './task-cost.ts';
import { branchesOf, gitIn } from './task-repo.ts';
import type { TaskWorld } from './task-world.ts';

/**
 * What the bot did on a task (issue 29), read from the product's own records — the ticket, its
 * reports, its trajectory (every model request with its usage, every tool call, how each turn
 * ended), its PR on the loopback GitHub — and from the repository it pushed to.
 */

export interface Observed {
  ticket: string | null;
  openedBy: string | null;
  lastReport: string | null;
  asked: boolean;
  /**
   * What the bot said to the person in its own reports (issue 47): each summary and question, the
   * host's own reports left out — what a no-change answer and a question are graded on.
   */
  said: string[];
  /** A question was asked before the bot's first push (or with no push at all). */
  askedBeforePush: boolean;
  acks: number;
  /** When the first acknowledgement of the request went out (ms since the epoch), null when none did. */
  firstAckAt: number | null;
  branch: string | null;
  pr: 'ready' | 'draft' | 'none';
  scratchFiles: string[];
  modelRequests: number;
  promptTokens: number;
  cacheHitTokens: number;
  completionTokens: number;
  /** USD at the product's prices (`task-cost.ts`). */
  costUsd: number;
  toolErrors: Record<string, number>;
  limitHits: number;
  turnsWithoutReport: number;
  /** Every step of the ticket's sessions (of each ticket, oldest first), for the trajectory file. */
  steps: ShownStep[];
}

export async function observe(w: TaskWorld, startBranches: Map<string, string>): Promise<Observed> {
  const tickets = (await listTickets(w.ctx)).sort((a, b) => a.createdAt - b.createdAt);
  const ticket = tickets[0];
  const steps = (await Promise.all(tickets.map((t) => ticketTrajectory(w.ctx, t.id)))).flat();
  const reports = ticket ? await reportsOf(w.ctx, ticket.id) : [];
  const pr = ticket ? await ticketPr(w.ctx, ticket.id) : undefined;
  const pull = pr ? w.github.pulls.find((p) => p.number === pr.number) : undefined;
  const branch = await pushedBranch(w, ticket?.id, startBranches);
  const usage = steps.flatMap((s) => (s.kind === 'model' && s.usage ? [s.usage] : []));
  const sum = (f: (u: (typeof usage)[number]) => number) => usage.reduce((n, u) => n + f(u), 0);
  return {
    ticket: ticket?.id ?? null,
    openedBy: ticket?.openedBy ?? null,
    lastReport: reports.at(-1)?.status ?? null,
    asked: reports.some((r) => r.human_action),
    said: reports.filter((r) => r.by !== 'host').flatMap(wordsOf),
    askedBeforePush: ticket
      ? askedFirst(
          reports,
          (await pushesOf(w.ctx, ticket.id)).map((p) => p.at),
        )
      : false,
    acks: ticket ? acksOf(steps, ticket.openedBy).length : 0,
    firstAckAt: ticket ? (acksOf(steps, ticket.openedBy)[0]?.at ?? null) : null,
    branch,
    pr: pull ? (pull.draft ? 'draft' : 'ready') : 'none',
    scratchFiles: branch ? await scratchIn(w, branch) : [],
    modelRequests: steps.filter((s) => s.kind === 'model').length,
    promptTokens: sum((u) => u.promptTokens),
    cacheHitTokens: sum((u) => u.cacheHitTokens),
    completionTokens: sum((u) => u.completionTokens),
    costUsd: usdOf(stepsCostNanos(steps, w.ctx.config)),
    toolErrors: toolErrors(steps),
    limitHits: steps.filter((s) => s.kind === 'end' && s.outcome === 'limit').length,
    turnsWithoutReport: tickets.reduce((n, t) => n + unreported(steps, executorSessionId(t.id)), 0),
    steps,
  };
}

function wordsOf(r: TicketReport): string[] {
  return [r.summary, ...(r.human_action ? [r.human_action.question] : [])];
}

function askedFirst(reports: TicketReport[], pushedAt: number[]): boolean {
  const asked = reports.find((r) => r.human_action && r.by !== 'host');
  return asked !== undefined && pushedAt.every((at) => at > asked.at);
}

/** Whether the request was acknowledged yet: the first ticket's `reply` to its card, purpose ack. */
export async function acknowledged(w: TaskWorld): Promise<boolean> {
  const ticket = (await listTickets(w.ctx)).sort((a, b) => a.createdAt - b.createdAt)[0];
  return ticket !== undefined && acksOf(await ticketTrajectory(w.ctx, ticket.id), ticket.openedBy).length > 0;
}

/** Successful acknowledgements of the request's card (`reply`, purpose ack). */
function acksOf(steps: TrajectoryStep[], card: string): TrajectoryStep[] {
  return steps
    .filter(
      (s) => s.kind === 'tool' && s.name === 'reply' && s.ok && s.args.head.startsWith(`to ${card} (ack)`),
    )
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
}

/**
 * Refused tool calls by tool; a tool that answered with a look asking to be called again (issue
 * 48's review before `mark_pr_ready`) refused nothing.
 */
function toolErrors(steps: TrajectoryStep[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of steps)
    if (s.kind === 'tool' && !s.ok && !s.result.head.includes(`Call ${s.name} again`))
      out[s.name] = (out[s.name] ?? 0) + 1;
  return out;
}

/** Executor turns of `session` that ended without a successful `report`. */
function unreported(steps: TrajectoryStep[], session: string): number {
  let reported = false;
  let count = 0;
  for (const s of steps) {
    if (!('session' in s) || s.session !== session) continue;
    if (s.kind === 'turn') reported = false;
    if (s.kind === 'tool' && s.name === 'report' && s.ok) reported = true;
    if (s.kind === 'end' && !reported) count++;
  }
  return count;
}

/** The ticket's branch when the bot pushed it; else any branch that was not there at the start. */
async function pushedBranch(
  w: TaskWorld,
  ticketId: string | undefined,
  start: Map<string, string>,
): Promise<string | null> {
  const now = await branchesOf(w.bare, w.dir);
  const ws = ticketId ? await loadWorkspace(w.ctx, ticketId) : undefined;
  if (ws && now.has(ws.branch) && now.get(ws.branch) !== start.get(ws.branch)) return ws.branch;
  return [...now].find(([b, sha]) => start.get(b) !== sha)?.[0] ?? null;
}

async function scratchIn(w: TaskWorld, branch: string): Promise<string[]> {
  const names = await gitIn(w.bare, w.dir, 'diff', '--name-only', '--diff-filter=A', `main...${branch}`);
  return names.split('\n').filter((f) => f && scratchReason(f));
}
