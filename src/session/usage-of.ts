import type { TurnOutcome, TurnUsage } from './turn-outcome.ts';
import type { TurnRun } from './turn-run.ts';

/** What the turn has used up to now. */
export function usageOf(run: TurnRun): TurnUsage {
  return {
    modelRequests: run.turn.modelRequests,
    tokens: run.turn.tokens,
    elapsedMs: run.now() - run.turn.startedAt,
  };
}

type OutcomeBody = TurnOutcome extends infer O ? (O extends unknown ? Omit<O, 'usage'> : never) : never;

/** An outcome carrying the turn's usage. */
export function outcome(run: TurnRun, body: OutcomeBody): { kind: 'finished'; outcome: TurnOutcome } {
  return { kind: 'finished', outcome: { ...body, usage: usageOf(run) } as TurnOutcome };
}
