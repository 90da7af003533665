import { type ArtifactSource, type BundledDirs, createArtifactSource } from './artifacts/artifact-source.ts';
import type { Ctx } from './context.ts';
import {
  type Builtins,
  createPromptReader,
  loadBuiltins,
  type PromptDeps,
  type PromptReader,
} from './prompts/index.ts';
import { createModels } from './session/create-models.ts';
import type { ModelClient } from './session/model-client.ts';
import { storeHandle } from './store/store-handle.ts';

/**
 * What sessions need beyond the shared context: this release's built-in prompt texts, a
 * per-process settings reader (R-F3), and the model clients. Built once per process.
 */
export interface Runtime {
  ctx: Ctx;
  prompts: PromptDeps & { reader: PromptReader };
  /** Undefined when no model is configured: sessions then wait, and start-up said so. */
  models: { main?: ModelClient; executor?: ModelClient };
  /** Bundled roles, skills, crews and workflows at the registry's revision (issue 7, R-G5). */
  artifacts: ArtifactSource;
  /**
   * Aborted when this process's workers stop (SIGTERM): running executor turns cancel their model
   * request and hand the turn back to the queue, to resume on another worker.
   */
  shutdown: AbortController;
}

export async function createRuntime(
  ctx: Ctx,
  builtins?: Builtins,
  artifactDirs?: BundledDirs,
): Promise<Runtime> {
  const b = builtins ?? (await loadBuiltins());
  const deps: PromptDeps = {
    ...storeHandle(ctx),
    builtins: b,
    sizeCap: ctx.config.PROMPT_SIZE_CAP,
    now: ctx.now,
  };
  return {
    ctx,
    prompts: { ...deps, reader: createPromptReader(deps) },
    models: createModels(ctx.config),
    artifacts: await createArtifactSource(ctx, b.skills, artifactDirs),
    shutdown: new AbortController(),
  };
}
