import type { EvalRecord } from './eval-record.ts';

/**
 * The candidate against the published prompts (issue 29, `--prompts`), paired by task: for each
 * task run that both arms completed (same task, same `--repeat` run, no error in either), the
 * difference candidate − published in resolved (1 or 0) and in cost; their mean with a 95 %
 * interval from Student's t with n − 1 degrees of freedom. Pairing takes out how hard each task
 * is, so a few tasks say more than two independent resolve rates would.
 */

export function compareArms(records: EvalRecord[]): ArmComparison {
  const key = (r: EvalRecord) => `${r.id}#${r.run}`;
  const of = (arm: string) => new Map(records.filter((r) => r.arm === arm).map((r) => [key(r), r]));
  const published = of('published');
  const candidate = of('candidate');
  const pairs: [EvalRecord, EvalRecord][] = [];
  let leftOut = 0;
  for (const k of new Set([...published.keys(), ...candidate.keys()])) {
    const p = published.get(k);
    const c = candidate.get(k);
    if (p && c && !p.error && !c.error) pairs.push([p, c]);
    else leftOut++;
  }
  const rate = (i: 0 | 1) => mean(pairs.map((pair) => (pair[i].resolved ? 1 : 0)));
  const cost = (i: 0 | 1) => mean(pairs.map((pair) => pair[i].costUsd));
  return {
    pairs: pairs.length,
    leftOut,
    resolveRate: {
      published: rate(0),
      candidate: rate(1),
      difference: interval(
        pairs.map(([p, c]) => Number(c.resolved) - Number(p.resolved)),
        -1,
        1,
      ),
    },
    costUsd: {
      published: cost(0),
      candidate: cost(1),
      difference: interval(pairs.map(([p, c]) => c.costUsd - p.costUsd)),
    },
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Mean and 95 % interval of paired differences; bounds null below two pairs (nothing to go on). */
function interval(d: number[], min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY): Interval {
  const m = mean(d);
  if (d.length < 2) return { mean: m, low: null, high: null };
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - m) ** 2, 0) / (d.length - 1));
  const half = (tQuantile(d.length - 1) * sd) / Math.sqrt(d.length);
  return { mean: m, low: Math.max(min, m - half), high: Math.min(max, m + half) };
}

/** Two-sided 95 % quantiles of Student's t, by degrees of freedom 1–30. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** Past 30 degrees of freedom, 1.96 + 2.4/df is within 0.003 of the true quantile. */
export const tQuantile = (df: number): number => T95[df - 1] ?? 1.96 + 2.4 / df;

/** A mean with its 95 % interval; bounds null when there is too little to go on (one pair). */
export interface Interval {
  mean: number;
  low: number | null;
  high: number | null;
}

/**
 * An A/B run's comparison (`--prompts`, `arm-comparison.ts`): candidate − published, paired by
 * task run. Rates are shares (0–1), costs USD per task run.
 */
export interface ArmComparison {
  /** Task runs both arms completed without an error. */
  pairs: number;
  /** Task runs left out: an error in either arm, or one arm missing. */
  leftOut: number;
  resolveRate: { published: number; candidate: number; difference: Interval };
  costUsd: { published: number; candidate: number; difference: Interval };
}
