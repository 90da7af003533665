import { tQuantile } from './arm-comparison.ts';

/**
 * The run's statistics (issue 47). A mean over a few runs gets a 95 % interval from Student's t
 * (1.96 standard errors is 2.2× too narrow at k = 3). Which tasks were drawn matters as much as
 * the runs: pass@1, pass@k and pass^k are means over tasks, each with a percentile bootstrap
 * interval that resamples tasks with replacement. pass@k (at least one of k runs resolves the
 * task) uses the unbiased estimator of Chen et al. (2021), 1 − C(n−c, k)/C(n, k); pass^k (all k
 * runs resolve it, the consistency a chat bot needs — τ-bench) is C(c, k)/C(n, k), for a task run
 * n times and resolved c times.
 */

export interface Estimate {
  mean: number;
  low: number;
  high: number;
}

/** The mean of `xs` with a 95 % Student's t interval, kept within [min, max]; no interval below two values. */
export function tInterval(xs: number[], min = 0, max = 1): Estimate {
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
  if (xs.length < 2) return { mean, low: mean, high: mean };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  const half = (tQuantile(xs.length - 1) * sd) / Math.sqrt(xs.length);
  return { mean, low: Math.max(min, mean - half), high: Math.min(max, mean + half) };
}

/** C(n, k) as a float (n is a handful of runs). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** pass@k of one task run n times, c resolved: the chance at least one of k runs drawn resolves it. */
export const passAtK = (n: number, c: number, k: number): number =>
  n - c < k ? 1 : 1 - choose(n - c, k) / choose(n, k);

/** pass^k of one task run n times, c resolved: the chance all of k runs drawn resolve it. */
export const passHatK = (n: number, c: number, k: number): number => choose(c, k) / choose(n, k);

/** A small seeded generator (mulberry32), so a run's intervals are the same each time they are computed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mean of per-task values with a 95 % percentile bootstrap interval over tasks. */
export function bootstrapMean(values: number[], resamples = 2000, seed = 47): Estimate {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  if (n < 2) return { mean, low: mean, high: mean };
  const rand = seeded(seed);
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(rand() * n)] as number;
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  const at = (q: number) =>
    means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))] as number;
  return { mean, low: at(0.025), high: at(0.975) };
}

/** pass@1, pass@k and pass^k over tasks, k being the fewest runs any task had. */
export interface TaskStats {
  k: number;
  passAt1: Estimate;
  passAtK: Estimate;
  passHatK: Estimate;
}

/** From each task's runs and resolved count. */
export function taskStats(tasks: { runs: number; resolved: number }[]): TaskStats {
  const k = Math.max(1, Math.min(...tasks.map((t) => t.runs)));
  const of = (f: (n: number, c: number) => number) => bootstrapMean(tasks.map((t) => f(t.runs, t.resolved)));
  return {
    k,
    passAt1: of((n, c) => c / n),
    passAtK: of((n, c) => passAtK(n, c, k)),
    passHatK: of((n, c) => passHatK(n, c, k)),
  };
}
