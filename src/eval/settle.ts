import { listTickets } from '../tickets/ticket-store.ts';
import { ticketTrajectory } from '../web/api/ticket-trajectory.ts';
import { acknowledged } from './observe.ts';
import type { TaskWorld } from './task-world.ts';

/**
 * Waiting for a ticket to settle (issue 29): the product has nothing queued or running and its
 * tickets and their trajectories stopped changing for a moment — the ticket is done, waiting on
 * a question, or idle — or the task's time ran out.
 */

export type Settled = 'done' | 'question' | 'idle' | 'timeout';

const QUIET_MS = 1500;
const POLL_MS = 250;

/** A fingerprint of what the product did so far: its tickets, their states and steps. */
export async function progressMark(w: TaskWorld): Promise<string> {
  const tickets = await listTickets(w.ctx);
  const parts = await Promise.all(
    tickets.map(async (t) => `${t.id}:${t.state}:${(await ticketTrajectory(w.ctx, t.id)).length}`),
  );
  return parts.sort().join(',');
}

async function busy(w: TaskWorld): Promise<boolean> {
  // The safety queue's repeating jobs are always delayed; every other delayed job is work to come.
  const counts = await Promise.all(
    Object.entries(w.ctx.queues).map(([name, q]) =>
      name === 'safety'
        ? q.getJobCounts('active', 'waiting', 'prioritized')
        : q.getJobCounts('active', 'waiting', 'prioritized', 'delayed'),
    ),
  );
  return counts.some((c) => Object.values(c).some((n) => n > 0));
}

/**
 * Resolves once the product is quiet after `before` (the mark taken before the message was
 * sent): something must have happened since, then nothing for `QUIET_MS`.
 */
export async function waitToSettle(w: TaskWorld, before: string, deadline: number): Promise<Settled> {
  let mark = before;
  let quietSince = Date.now();
  let moved = false;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = await progressMark(w);
    if (now !== mark) {
      mark = now;
      moved = true;
      quietSince = Date.now();
      continue;
    }
    if (!moved || (await busy(w))) {
      quietSince = Date.now();
      continue;
    }
    if (Date.now() - quietSince >= QUIET_MS) return stateOf(w);
  }
  return 'timeout';
}

async function stateOf(w: TaskWorld): Promise<Settled> {
  const states = (await listTickets(w.ctx)).map((t) => t.state);
  if (states.includes('waiting')) return 'question';
  if (states.length && states.every((s) => s === 'done' || s === 'cancelled')) return 'done';
  return 'idle';
}

/**
 * For a follow-up sent `after: acknowledged` (issue 47 item 5, the pause task's `/pause`): resolves
 * as soon as the request is acknowledged — while the bot works, not after — or when the product
 * settles or the time runs out without one.
 */
export async function waitForAck(w: TaskWorld, before: string, deadline: number): Promise<Settled> {
  let mark = before;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (await acknowledged(w)) return 'idle';
    await new Promise((r) => setTimeout(r, POLL_MS / 5));
    const now = await progressMark(w);
    if (now !== mark) {
      mark = now;
      quietSince = Date.now();
    } else if (mark !== before && Date.now() - quietSince >= QUIET_MS && !(await busy(w))) {
      return stateOf(w);
    }
  }
  return 'timeout';
}
