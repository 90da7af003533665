import { pushesOf } from '../executor/workspace/delivery-records.ts';
import { pauseLog } from '../tickets/pause.ts';
import { type EvalTask, pauseCommandOf } from './task.ts';
import type { TaskWorld } from './task-world.ts';

/**
 * The product's own behaviours a task grades besides its check (issue 47 item 5): each
 * review-thread comment answered in its thread by the bot and the thread resolved; a person's
 * `/pause` holding — nothing pushed from the pause until the `/resume`.
 */

/** The review threads the runner opened: how many, how many the bot replied in, how many it resolved. */
export interface ReviewThreads {
  total: number;
  answered: number;
  resolved: number;
}

/**
 * The task's review-thread follow-ups and what became of them; `sent` holds each one's comment id,
 * undefined where it could not be sent (no pull request to review). Null for a task without any.
 */
export function reviewThreadsOf(
  w: TaskWorld,
  task: EvalTask,
  sent: (number | undefined)[],
): ReviewThreads | null {
  const total = task.followups.filter((f) => f.review).length;
  if (!total) return null;
  const threads = sent.flatMap((id) =>
    w.github.threads.filter((t) => id !== undefined && t.comments[0]?.id === id),
  );
  return {
    total,
    answered: threads.filter((t) => t.comments.slice(1).some((c) => c.by === w.github.botLogin)).length,
    resolved: threads.filter((t) => t.resolved).length,
  };
}

/** What `score` reads besides `observe`'s: null where the task grades no such behaviour. */
export interface Behaviours {
  reviewThreads: ReviewThreads | null;
  pauseHeld: boolean | null;
}

/** Every thread answered in and resolved: what a review task needs besides its check. */
export const threadsDone = (r: ReviewThreads | null) =>
  !r || (r.answered === r.total && r.resolved === r.total);

/**
 * Whether a person's pause held (null for a task with no `/pause` follow-up): the ticket's pause
 * log shows the pause the runner's message made, a resume after it, and the ticket pushed nothing
 * between the two. A pause that never took holds nothing.
 */
export async function pauseHeldOf(
  w: TaskWorld,
  task: EvalTask,
  ticket: string | null,
): Promise<boolean | null> {
  if (!task.followups.some((f) => pauseCommandOf(f) === 'pause')) return null;
  if (!ticket) return false;
  const log = await pauseLog(w.ctx, ticket);
  const pauses = log.filter((e) => e.kind === 'pause' && e.via === 'message');
  if (!pauses.length) return false;
  const pushedAt = (await pushesOf(w.ctx, ticket)).map((p) => p.at);
  return pauses.every((p) => {
    const lifted = log.find((e) => e.kind === 'resume' && e.at >= p.at);
    return lifted !== undefined && !pushedAt.some((at) => at >= p.at && at <= lifted.at);
  });
}
