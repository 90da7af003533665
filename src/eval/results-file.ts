import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArmComparison } from './arm-comparison.ts';
import type { EvalRecord } from './eval-record.ts';
import type { RunSummary } from './results.ts';
import type { ModelSettings } from './run-identity.ts';

/**
 * The run's folder and its `results.json` (issue 29): `<results>/<timestamp>/`, made when the run
 * starts so each task's trajectory can be written there as it finishes. The layout and every
 * field are what the panel's Eval page reads; docs/eval.md describes them.
 */

export interface RunMeta {
  /** ISO time the run started. */
  startedAt: string;
  seconds: number;
  /** The model and provider the product ran with (`switchyard-oracle`, `compatible` for the oracle). */
  model: string;
  provider: string;
  oracle: boolean;
  /** The product's commit (`-dirty` with uncommitted changes); null where it has no git checkout. */
  productCommit: string | null;
  /** The model settings the products ran with: models, thinking and effort, LLM_MAX_TOKENS. */
  settings: ModelSettings | null;
  /** SHA-256 of the tasks run (`run-identity.ts`): the same hash, the same tasks. */
  taskSetHash: string;
  /** `null` under `--baseline null` (the agent that acknowledges and does nothing else); null otherwise. */
  baseline: 'null' | null;
  /** The split scored (issue 47): `dev`, `test` or `all` (`--split`; dev by default in an A/B run). */
  split: 'dev' | 'test' | 'all';
  tasksDir: string;
  repeat: number;
  concurrency: number;
  /** The prompt versions the arms ran under: `defaults` or `r<N>`; a candidate only in an A/B run. */
  prompts: { published: string; candidate: string | null };
  /** When the built-in price table was read (`src/stats/prices.ts`). */
  pricesReadOn: string;
  /** `--record DIR`: the recording made; `--replay DIR`: the recording answered from. */
  record: string | null;
  replay: string | null;
}

export interface ResultsFile {
  meta: RunMeta;
  summary: RunSummary;
  /** An A/B run's summary per arm, by arm label (`published`, `candidate`); null otherwise. */
  arms: Record<string, RunSummary> | null;
  comparison: ArmComparison | null;
  records: EvalRecord[];
}

/** A new `<dir>/<timestamp>/` for a run. */
export function makeRunFolder(dir: string, startedAt: Date): string {
  const out = join(dir, startedAt.toISOString().replace(/[:.]/g, '-'));
  mkdirSync(out, { recursive: true });
  return out;
}

/** Writes `results.json` into the run's folder; returns the file's path. */
export function writeResults(folder: string, results: ResultsFile): string {
  const file = join(folder, 'results.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
