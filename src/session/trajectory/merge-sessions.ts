import type { TrajectoryStep } from './trajectory-step.ts';

/**
 * Puts several sessions' steps (each list in its own order) into one by time (issue 17: the main
 * session's turns that touched a ticket among its executor's). Each list keeps its order; a step
 * without a time (stored before step records existed) follows the one before it in its list.
 * On equal times the earlier list goes first.
 */
export function mergeSessions(lists: readonly (readonly TrajectoryStep[])[]): TrajectoryStep[] {
  const next = lists.map(() => 0);
  const out: TrajectoryStep[] = [];
  for (;;) {
    let pick = -1;
    let pickAt = Number.POSITIVE_INFINITY;
    for (const [i, list] of lists.entries()) {
      const step = list[next[i] ?? 0];
      if (!step) continue;
      const at = step.at ?? Number.NEGATIVE_INFINITY;
      if (pick === -1 || at < pickAt) {
        pick = i;
        pickAt = at;
      }
    }
    if (pick === -1) return out;
    out.push(lists[pick]?.[next[pick] ?? 0] as TrajectoryStep);
    next[pick] = (next[pick] ?? 0) + 1;
  }
}
