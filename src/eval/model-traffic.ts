import { type RecordProxy, startRecordProxy } from './record-proxy.ts';
import { type ReplayServer, startReplayServer } from './replay-server.ts';
import type { Volatile } from './request-key.ts';
import type { RecordingManifest } from './traffic-file.ts';

/**
 * How a task run's product reaches its model under `--record` / `--replay` (issue 29): recording
 * puts `record-proxy.ts` in front of the model the run would use; replaying puts
 * `replay-server.ts` in its place, speaking the recorded provider's contract with the recorded
 * model name, so the product builds the same requests without any model.
 */

export type Traffic =
  | { mode: 'record'; dir: string }
  | { mode: 'replay'; dir: string; manifest: RecordingManifest };

export interface WiredModel {
  /** The product's LLM_* settings. */
  env: Record<string, string>;
  replay?: ReplayServer;
  recorder?: RecordProxy;
  close(): Promise<void>;
}

/**
 * The recorder in front of `env`'s model (its `LLM_BASE_URL`, which the caller resolved), or the
 * replay server instead of it. `label` names the task run's exchanges (`<task>-<run>`).
 */
export async function wireModel(
  traffic: Traffic,
  env: Record<string, string> | undefined,
  label: string,
  volatile: () => readonly Volatile[],
): Promise<WiredModel> {
  if (traffic.mode === 'replay') {
    const m = traffic.manifest;
    const replay = await startReplayServer({ dir: traffic.dir, label, basePath: m.basePath, volatile });
    return {
      env: {
        LLM_API_KEY: 'replay',
        LLM_BASE_URL: replay.baseURL,
        LLM_PROVIDER: m.provider,
        LLM_MODEL: m.model,
      },
      replay,
      close: () => replay.close(),
    };
  }
  const upstream = env?.LLM_BASE_URL;
  if (!env || !upstream) throw new Error('eval recorder: the model has no LLM_BASE_URL to record');
  const recorder = await startRecordProxy({ upstream, dir: traffic.dir, label, volatile });
  return { env: { ...env, LLM_BASE_URL: recorder.baseURL }, recorder, close: () => recorder.close() };
}
