import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Traffic } from './model-traffic.ts';
import { RECORDING_VERSION, readManifest, writeManifest } from './traffic-file.ts';

/**
 * `--record DIR` and `--replay DIR` turned into the run's `Traffic` (issue 29): a recording's
 * folder is refused when it already holds one (two runs' exchanges would mix); a replay takes the
 * provider and model from the recording, so it needs no `EVAL_LLM_*` and no oracle.
 */

export interface ModelOfRun {
  model: string;
  provider: string;
  oracle: boolean;
  /** The model's base URL (the recorder's upstream), resolved as the product resolves it. */
  baseUrl: string;
}

/** The recording to make: its manifest written, or why not. */
export function startRecording(dir: string, m: ModelOfRun, now = new Date()): Traffic | string {
  const at = resolve(dir);
  if (existsSync(join(at, 'recording.json')))
    return `--record ${dir}: that folder already holds a recording; name an empty or new folder`;
  writeManifest(at, {
    version: RECORDING_VERSION,
    createdAt: now.toISOString(),
    provider: m.provider,
    model: m.model,
    oracle: m.oracle,
    basePath: new URL(m.baseUrl).pathname.replace(/\/+$/, ''),
  });
  return { mode: 'record', dir: at };
}

/** The recording to replay, or why it cannot be. */
export function openRecording(dir: string): Extract<Traffic, { mode: 'replay' }> | string {
  const at = resolve(dir);
  const manifest = readManifest(at);
  return typeof manifest === 'string' ? `--replay: ${manifest}` : { mode: 'replay', dir: at, manifest };
}
