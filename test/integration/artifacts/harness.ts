import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultBundledDirs } from '../../../src/artifacts/artifact-source.ts';
import { createRuntime, type Runtime } from '../../../src/runtime.ts';
import { startWorkers } from '../../../src/workers.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm } from '../../kit/fake-llm.ts';

export interface ArtifactWorld {
  app: TestApp;
  llm: FakeLlm;
  rt: Runtime;
  /** A copy of the bundled folders this product runs with; tests edit it and reload (R-G5). */
  bundled: string;
  writeBundled(path: string, text: string): void;
  close(): Promise<void>;
}

/**
 * The product with the fake model and its bundled artifacts read from a temporary copy of the
 * repository's folders (plus `extra` files), so a test can add a crew or edit a role on disk.
 */
export async function startArtifactWorld(
  extra: Record<string, string> = {},
  env: Record<string, string> = {},
  opts: { workers?: boolean } = {},
): Promise<ArtifactWorld> {
  const bundled = mkdtempSync(join(tmpdir(), 'sy-bundled-'));
  const dirs = defaultBundledDirs();
  for (const folder of Object.values(dirs.folders))
    cpSync(join(dirs.root, folder), join(bundled, folder), { recursive: true });
  const writeBundled = (path: string, text: string) => {
    mkdirSync(join(bundled, path, '..'), { recursive: true });
    writeFileSync(join(bundled, path), text);
  };
  for (const [path, text] of Object.entries(extra)) writeBundled(path, text);
  const llm = await startFakeLlm();
  const app = await startTestApp(
    { LLM_BASE_URL: llm.baseURL, WORKSPACE_DIR: join(bundled, 'workspaces'), ...env },
    { workers: false },
  );
  const rt = await createRuntime(app.ctx, undefined, { root: bundled, folders: dirs.folders });
  const workers = opts.workers === false ? undefined : await startWorkers(app.ctx, rt);
  return {
    app,
    llm,
    rt,
    bundled,
    writeBundled,
    async close() {
      await workers?.stop();
      await app.close();
      await llm.close();
      rmSync(bundled, { recursive: true, force: true });
    },
  };
}

export const toolNames = (req: RecordedRequest): string[] => req.tools.map((t) => t.function.name);

/** Runs a tool of the main session directly, as the agent loop would. */
export const callCtx = { sessionId: 'test', toolCallId: 'call', idempotencyKey: 'test:call' };
