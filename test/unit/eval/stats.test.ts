import { describe, expect, it } from 'vitest';
import { summarise } from '../../../src/eval/results.ts';
import { bootstrapMean, passAtK, passHatK, taskStats, tInterval } from '../../../src/eval/stats.ts';
import { sampleRecord } from '../../integration/eval/eval-results-fixture.ts';

/** Issue 47: the run's statistics, against values worked out by hand. */
describe('eval statistics', () => {
  it('gives a mean over three runs Student’s t interval (4.303, not 1.96, standard errors)', () => {
    const e = tInterval([0.6, 0.7, 0.8]);
    expect(e.mean).toBeCloseTo(0.7, 12);
    // sd 0.1, standard error 0.1/√3; t(0.975, 2 df) = 4.303.
    expect(e.low).toBeCloseTo(0.7 - 0.248434, 5);
    expect(e.high).toBeCloseTo(0.7 + 0.248434, 5);
    expect(tInterval([0.9, 1, 1]).high).toBe(1);
    expect(tInterval([0.5])).toEqual({ mean: 0.5, low: 0.5, high: 0.5 });
  });

  it('estimates pass@k and pass^k of a task from its n runs and c resolved', () => {
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 12); // 1 − C(3,2)/C(5,2)
    expect(passHatK(5, 2, 2)).toBeCloseTo(1 / 10, 12); // C(2,2)/C(5,2)
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 2, 3)).toBe(0);
    expect(passAtK(4, 1, 1)).toBeCloseTo(0.25, 12);
    expect(passHatK(4, 1, 1)).toBeCloseTo(0.25, 12);
  });

  it('bootstraps over tasks, the same each time: two tasks 0 and 1 give the whole range', () => {
    // Means of two draws from {0, 1}: 0, 0.5 or 1 with chances ¼, ½, ¼ — the 2.5 and 97.5 % points are 0 and 1.
    expect(bootstrapMean([0, 1])).toEqual({ mean: 0.5, low: 0, high: 1 });
    expect(bootstrapMean([0.5, 0.5, 0.5])).toEqual({ mean: 0.5, low: 0.5, high: 0.5 });
    const xs = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
    expect(bootstrapMean(xs)).toEqual(bootstrapMean(xs));
    const e = bootstrapMean(xs);
    expect(e.low).toBeLessThan(0.7);
    expect(e.high).toBeGreaterThan(0.7);
    expect(taskStats([{ runs: 3, resolved: 3 }]).passHatK).toEqual({ mean: 1, low: 1, high: 1 });
  });

  it('summarises a run: per-task pass@k and pass^k, wall time and cost per resolved task, acknowledgements', () => {
    const records = [1, 2, 3].flatMap((run) => [
      sampleRecord({ id: 'a', run, resolved: true, wallSeconds: 10, costUsd: 0.01, ackSeconds: run }),
      sampleRecord({ id: 'b', run, resolved: run === 1, wallSeconds: 20, costUsd: 0.02, ackSeconds: null }),
    ]);
    const s = summarise(records);
    expect(s).toMatchObject({ tasks: 2, runs: 3, resolved: 4, acknowledgedOnce: 6, ackSecondsMedian: 2 });
    expect(s.byTask.k).toBe(3);
    expect(s.byTask.passAt1.mean).toBeCloseTo((1 + 1 / 3) / 2, 12);
    expect(s.byTask.passAtK.mean).toBe(1);
    expect(s.byTask.passHatK.mean).toBe(0.5);
    // Each run resolves a and, in run 1, b: rates 1, ½, ½ — mean ⅔, sd 0.2887; t(2) = 4.303 makes
    // the half-width 0.717, past both ends (1.96 would give 0.34 to 0.99).
    expect(s.passAt1.mean).toBeCloseTo(2 / 3, 12);
    expect([s.passAt1.low, s.passAt1.high]).toEqual([0, 1]);
    expect(s.wallSecondsPerResolved).toBe(22.5); // 90 s over 4 resolved
    expect(s.costPerResolvedUsd).toBe(0.0225);
  });
});
