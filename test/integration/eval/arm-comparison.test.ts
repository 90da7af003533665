import { describe, expect, it } from 'vitest';
import { compareArms, tQuantile } from '../../../src/eval/arm-comparison.ts';
import type { EvalRecord } from '../../../src/eval/eval-record.ts';

/**
 * Issue 29 `--prompts`: the candidate against the published arm, paired by task run, with a 95 %
 * interval from Student's t. Records are built by hand: only the fields the comparison reads.
 */

const rec = (id: string, arm: 'published' | 'candidate', resolved: boolean, costUsd: number, extra = {}) =>
  ({ id, run: 1, arm, resolved, costUsd, ...extra }) as EvalRecord;

describe('A/B comparison paired by task (issue 29)', () => {
  it('takes candidate − published per task run, with a t interval over the pairs', () => {
    const records = [
      rec('a', 'published', false, 0.01),
      rec('a', 'candidate', true, 0.03),
      rec('b', 'published', true, 0.02),
      rec('b', 'candidate', true, 0.02),
      rec('c', 'published', true, 0.04),
      rec('c', 'candidate', true, 0.05),
    ];
    const c = compareArms(records);
    expect(c.pairs).toBe(3);
    expect(c.leftOut).toBe(0);
    expect(c.resolveRate.published).toBeCloseTo(2 / 3, 12);
    expect(c.resolveRate.candidate).toBe(1);
    // Differences 1, 0, 0: mean 1/3, standard error 1/3; t(2) = 4.303 reaches past ±1 both ways,
    // and a difference of resolve rates is kept within them.
    expect(c.resolveRate.difference).toEqual({ mean: expect.closeTo(1 / 3, 12), low: -1, high: 1 });
    // Cost differences 0.02, 0, 0.01: mean 0.01, sd 0.01, standard error 0.01/√3.
    expect(c.costUsd.difference.mean).toBeCloseTo(0.01, 12);
    expect(c.costUsd.difference.high).toBeCloseTo(0.01 + (4.303 * 0.01) / Math.sqrt(3), 12);
  });

  it('leaves out a task run with an error in either arm, or with one arm missing, and counts it', () => {
    const c = compareArms([
      rec('a', 'published', true, 0.01),
      rec('a', 'candidate', false, 0.01, { error: 'the product would not start' }),
      rec('b', 'published', true, 0.01),
      rec('c', 'published', true, 0.01),
      rec('c', 'candidate', true, 0.02),
    ]);
    expect(c).toMatchObject({ pairs: 1, leftOut: 2 });
    expect(c.costUsd.difference).toEqual({ mean: expect.closeTo(0.01, 12), low: null, high: null });
  });

  it('uses t quantiles for few pairs and approaches 1.96 for many', () => {
    expect(tQuantile(1)).toBe(12.706);
    expect(tQuantile(30)).toBe(2.042);
    expect(tQuantile(60)).toBeCloseTo(2.0, 2);
    expect(tQuantile(10_000)).toBeCloseTo(1.96, 3);
  });
});
