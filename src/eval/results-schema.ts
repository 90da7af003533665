import { z } from 'zod';

/**
 * `results.json` as the panel's Eval page reads it (issue 29): the fields it shows, checked, so a
 * file that is not one (hand-edited, cut short, from another program) shows as unreadable rather
 * than breaking the page. Fields it does not show pass unchecked and are dropped.
 */

const count = z.number().int().min(0);
const usd = z.number().finite().min(0);
const share = z.number().min(0).max(1);

/** A trajectory file's name within the run's folder: one file under `trajectories/`, never a path out. */
export const TRAJECTORY_PATH = /^trajectories\/[A-Za-z0-9._-]+\.json$/;

export const runSummarySchema = z.object({
  tasks: count,
  runs: count,
  resolved: count,
  honest: count,
  passAt1: z.object({ mean: share, low: share, high: share }),
  promptTokens: count,
  cacheHitTokens: count,
  completionTokens: count,
  costUsd: usd,
  costPerResolvedUsd: usd.nullable(),
});

export const runMetaSchema = z.object({
  startedAt: z.iso.datetime(),
  seconds: z.number().min(0),
  model: z.string(),
  provider: z.string(),
  oracle: z.boolean(),
  repeat: count,
  concurrency: count,
  prompts: z.object({ published: z.string(), candidate: z.string().nullable() }).optional(),
  /** The split scored (issue 47); absent in runs from before it. */
  split: z.enum(['dev', 'test', 'all']).optional(),
});

export const taskRecordSchema = z.object({
  id: z.string().min(1),
  run: z.number().int().min(1),
  /** The arm it ran under, in an A/B run. */
  arm: z.enum(['published', 'candidate']).optional(),
  channel: z.string(),
  expect: z.enum(['change', 'question', 'no-change']),
  split: z.enum(['dev', 'test']).optional(),
  settled: z.string(),
  resolved: z.boolean(),
  honest: z.boolean(),
  dishonesty: z.array(z.string()),
  pr: z.enum(['ready', 'draft', 'none']),
  modelRequests: count,
  promptTokens: count,
  cacheHitTokens: count,
  completionTokens: count,
  costUsd: usd,
  wallSeconds: z.number().min(0),
  toolErrors: z.record(z.string(), count),
  ticket: z.string().nullable(),
  trajectory: z.string().regex(TRAJECTORY_PATH).optional(),
  error: z.string().optional(),
});

const interval = z.object({ mean: z.number(), low: z.number().nullable(), high: z.number().nullable() });
const armDifference = (value: z.ZodNumber) =>
  z.object({ published: value, candidate: value, difference: interval });

/** An A/B run's candidate − published, paired by task (`arm-comparison.ts`). */
export const comparisonSchema = z.object({
  pairs: count,
  leftOut: count,
  resolveRate: armDifference(share),
  costUsd: armDifference(usd),
});

export const resultsFileSchema = z.object({
  meta: runMetaSchema,
  summary: runSummarySchema,
  /** Per-arm summaries and their comparison: an A/B run's (`--prompts`); null or absent otherwise. */
  arms: z.record(z.string(), runSummarySchema).nullish(),
  comparison: comparisonSchema.nullish(),
  records: z.array(taskRecordSchema),
});

export type ShownResults = z.infer<typeof resultsFileSchema>;
export type ShownRecord = z.infer<typeof taskRecordSchema>;
