import { describe, expect, it } from 'vitest';
import { limitBeforeModelRequest, wallTimeLimit } from '../../../src/session/turn-limits.ts';
import { newTurnState } from '../../../src/session/turn-state.ts';

const limits = { maxModelRequests: 3, maxTokens: 100, maxWallTimeMs: 1000 };

describe('turn limits', () => {
  it('nothing trips while every budget has room', () => {
    expect(
      limitBeforeModelRequest({ ...newTurnState('t', 0), modelRequests: 2, tokens: 99 }, limits, 999),
    ).toBe(undefined);
  });

  it('the request budget trips once that many requests were made', () => {
    const tripped = limitBeforeModelRequest({ ...newTurnState('t', 0), modelRequests: 3 }, limits, 0);
    expect(tripped?.limit).toBe('model_requests');
    expect(tripped?.detail).toContain('3 of 3');
  });

  it('the token budget trips once the tokens used reach it', () => {
    expect(limitBeforeModelRequest({ ...newTurnState('t', 0), tokens: 100 }, limits, 0)?.limit).toBe(
      'tokens',
    );
  });

  it('wall time counts from the turn’s start, which a resume keeps', () => {
    expect(wallTimeLimit(newTurnState('t', 5000), limits, 6000)?.limit).toBe('wall_time');
    expect(wallTimeLimit(newTurnState('t', 5000), limits, 5999)).toBe(undefined);
  });
});
