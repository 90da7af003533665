import type { Ctx } from '../../context.ts';
import { sentRecord } from '../../outbox/sent-records.ts';
import { readStepRecords } from '../../session/step-log.ts';
import { mergeEvents } from '../../session/trajectory/merge-events.ts';
import { sessionTrajectory } from '../../session/trajectory/session-trajectory.ts';
import type { TrajectoryStep } from '../../session/trajectory/trajectory-step.ts';
import { readTranscript } from '../../session/transcript-store.ts';
import { pauseLog } from '../../tickets/pause.ts';
import { executorSessionId } from '../../tickets/ticket-keys.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'queues'>;

/** A step as the panel gets it: a message carries its delivery (`sent`: when, the message id). */
export type ShownStep = TrajectoryStep & { sent?: { at: number; id: string | null } | null };

/**
 * Every step of every turn of the ticket's executor session, with the ticket's pauses and
 * resumes (breaker trips among them) placed by time (issue 17 "trajectory"). A message the
 * session sent carries its delivery record, or null while it is pending.
 */
export async function ticketTrajectory(ctx: ReadCtx, ticketId: string): Promise<ShownStep[]> {
  const id = executorSessionId(ticketId);
  const [transcript, records, events] = await Promise.all([
    readTranscript(ctx, id),
    readStepRecords(ctx, id),
    pauseLog(ctx, ticketId),
  ]);
  const steps = sessionTrajectory({
    id,
    messages: transcript.messages,
    results: transcript.results,
    records,
  });
  const merged = mergeEvents(
    steps,
    events.map(({ detail, ...e }) => (detail ? { ...e, detail } : e)),
  );
  return Promise.all(merged.map((s) => withDelivery(ctx, s)));
}

async function withDelivery(ctx: ReadCtx, step: TrajectoryStep): Promise<ShownStep> {
  if (step.kind !== 'tool' || !step.message || !step.ok) return step;
  const sent = await sentRecord(ctx, step.message.outboxKey);
  return { ...step, sent: sent ? { at: sent.at, id: sent.id } : null };
}
