import type { TrajectoryStep } from './trajectory-step.ts';

type Event = Extract<TrajectoryStep, { kind: 'pause' | 'resume' }>;

/**
 * Puts pauses and resumes (oldest first) among the steps by time: an event goes before the first
 * step recorded after it. Steps without a time keep their place after the one before them.
 */
export function mergeEvents(steps: readonly TrajectoryStep[], events: readonly Event[]): TrajectoryStep[] {
  const out: TrajectoryStep[] = [];
  let e = 0;
  for (const step of steps) {
    const at = step.at;
    if (at !== undefined)
      while (e < events.length && (events[e] as Event).at < at) out.push(events[e++] as Event);
    out.push(step);
  }
  while (e < events.length) out.push(events[e++] as Event);
  return out;
}
