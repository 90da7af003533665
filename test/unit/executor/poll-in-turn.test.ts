import { describe, expect, it } from 'vitest';
import { pollInTurn } from '../../../src/executor/sandbox/poll-in-turn.ts';
import { waitFor } from '../../kit/app.ts';

describe('the disk poll while a command runs (issue 45 "overlapping disk polls")', () => {
  it('issue 45: a measure slower than the interval is never started beside the one under way, and stop waits for it', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const slowMeasure = async () => {
      running++;
      runs++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 60));
      running--;
    };
    const poll = pollInTurn(slowMeasure, 10);
    await waitFor(() => runs >= 4, 'four measures');
    await poll.stop();
    expect(most).toBe(1);
    expect(running).toBe(0);
    const after = runs;
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(after);
  });
});
