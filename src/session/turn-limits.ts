import type { LimitName } from './turn-outcome.ts';
import type { TurnState } from './turn-state.ts';

/** Budgets of one turn; code enforces them whatever the prompt says (R-E4). */
export interface TurnLimits {
  maxModelRequests: number;
  maxTokens: number;
  maxWallTimeMs: number;
}

export const defaultTurnLimits: TurnLimits = {
  maxModelRequests: 40,
  maxTokens: 2_000_000,
  maxWallTimeMs: 30 * 60_000,
};

export interface TrippedLimit {
  limit: LimitName;
  detail: string;
}

/**
 * The budget that forbids the next model request, if any. Counts are checked before a request,
 * so a turn makes at most `maxModelRequests` requests and stops at the first request after its
 * tokens reach `maxTokens`.
 */
export function limitBeforeModelRequest(
  turn: TurnState,
  limits: TurnLimits,
  now: number,
): TrippedLimit | undefined {
  if (turn.modelRequests >= limits.maxModelRequests) {
    return {
      limit: 'model_requests',
      detail: `${turn.modelRequests} of ${limits.maxModelRequests} model requests used`,
    };
  }
  if (turn.tokens >= limits.maxTokens) {
    return { limit: 'tokens', detail: `${turn.tokens} of ${limits.maxTokens} tokens used` };
  }
  return wallTimeLimit(turn, limits, now);
}

/** The wall-time budget, checked before tool calls as well as model requests. */
export function wallTimeLimit(turn: TurnState, limits: TurnLimits, now: number): TrippedLimit | undefined {
  const elapsed = now - turn.startedAt;
  if (elapsed < limits.maxWallTimeMs) return undefined;
  return { limit: 'wall_time', detail: `${elapsed} ms elapsed of ${limits.maxWallTimeMs} ms allowed` };
}
