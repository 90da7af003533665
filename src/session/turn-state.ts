import { z } from 'zod';
import { type TurnOutcome, TurnOutcomeSchema } from './turn-outcome.ts';

/**
 * What a turn has used so far. Persisted with the transcript so a turn resumed on another worker
 * keeps counting against the same budgets from the same start time.
 */
export interface TurnState {
  /** The caller's id for the turn (the job id): the same id resumes, a new id starts afresh. */
  id: string;
  startedAt: number;
  modelRequests: number;
  tokens: number;
  /** `running` until the turn reaches an outcome; only a running turn is resumed. */
  status: 'running' | TurnOutcome['kind'];
  /** Kept so a job retried after its turn finished gets the same outcome instead of a new turn. */
  outcome?: TurnOutcome;
  /** The host's notes to the model this turn, by kind (issue 28): each kind is given a bounded number of times. */
  notes?: string[];
  /** Where this turn's input sits in the transcript: the turn's own steps follow it (issue 28). */
  inputIndex?: number;
}

export function newTurnState(id: string, now: number): TurnState {
  return { id, startedAt: now, modelRequests: 0, tokens: 0, status: 'running' };
}

/** The turn state as the transcript stores it (`turn`), read through zod (issue 20). */
export const TurnStateSchema = z.object({
  id: z.string(),
  startedAt: z.number(),
  modelRequests: z.number(),
  tokens: z.number(),
  status: z.enum(['running', 'ended', 'stopped', 'limit', 'failed']),
  outcome: TurnOutcomeSchema.exactOptional(),
  notes: z.array(z.string()).exactOptional(),
  inputIndex: z.number().exactOptional(),
}) satisfies z.ZodType<TurnState, unknown>;
