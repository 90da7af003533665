import type { Ctx } from '../../context.ts';
import { sentRecord } from '../../outbox/sent-records.ts';
import { readStepRecords } from '../../session/step-log.ts';
import { mergeEvents } from '../../session/trajectory/merge-events.ts';
import { mergeSessions } from '../../session/trajectory/merge-sessions.ts';
import { sessionTrajectory } from '../../session/trajectory/session-trajectory.ts';
import type { TrajectoryStep } from '../../session/trajectory/trajectory-step.ts';
import { readTranscript } from '../../session/transcript-store.ts';
import { pauseLog } from '../../tickets/pause.ts';
import { executorSessionId } from '../../tickets/ticket-keys.ts';
import { ticketSessionIds } from '../../tickets/ticket-store.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'queues'>;

/** A step as the panel gets it: a message carries its delivery (`sent`: when, the message id). */
export type ShownStep = TrajectoryStep & { sent?: { at: number; id: string | null } | null };

/**
 * Every step of every turn of every session that touched the ticket — its executor's, and the
 * main session's turns that opened it, attached a card, sent it a note or stopped it — by time,
 * with the ticket's pauses and resumes (breaker trips among them) placed by time (issue 17
 * "trajectory"). A message a session sent carries its delivery record, or null while pending.
 */
export async function ticketTrajectory(ctx: ReadCtx, ticketId: string): Promise<ShownStep[]> {
  const [others, events] = await Promise.all([ticketSessionIds(ctx, ticketId), pauseLog(ctx, ticketId)]);
  const ids = [...others.sort(), executorSessionId(ticketId)];
  const lists = await Promise.all(ids.map((id) => stepsOf(ctx, id)));
  const merged = mergeEvents(
    mergeSessions(lists),
    events.map(({ detail, ...e }) => (detail ? { ...e, detail } : e)),
  );
  return Promise.all(merged.map((s) => withDelivery(ctx, s)));
}

async function stepsOf(ctx: ReadCtx, id: string): Promise<TrajectoryStep[]> {
  const [transcript, records] = await Promise.all([readTranscript(ctx, id), readStepRecords(ctx, id)]);
  return sessionTrajectory({ id, messages: transcript.messages, results: transcript.results, records });
}

async function withDelivery(ctx: ReadCtx, step: TrajectoryStep): Promise<ShownStep> {
  if (step.kind !== 'tool' || !step.message || !step.ok) return step;
  const sent = await sentRecord(ctx, step.message.outboxKey);
  return { ...step, sent: sent ? { at: sent.at, id: sent.id } : null };
}
