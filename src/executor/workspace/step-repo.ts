import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { ensureMirror, localHostEnv, mirrorRoot } from './mirror.ts';
import { mkdirPrivate } from './private-dir.ts';
import { git } from './run-git.ts';

type StepRepoCtx = Pick<Ctx, 'config' | 'keys'>;

/**
 * Runs `fn` with a scratch bare repository for one workspace step (issue 45): it borrows the
 * mirror's objects (alternates, whose refs also count as what it has when fetching), so only what
 * the step adds is written there, and it is deleted afterwards. Work-in-progress commits are
 * recorded and restored through it and never enter the shared mirror, which kept every step's
 * objects of every ticket, outside any cap and never pruned. Made as files, with no config.
 */
export async function withStepRepo<T>(
  ctx: StepRepoCtx,
  repo: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const mirror = await ensureMirror(ctx, repo);
  const dir = join(mirrorRoot(ctx).tmp, `step-${randomUUID().slice(0, 8)}`);
  try {
    await mkdirPrivate(join(dir, 'objects', 'info'));
    await mkdirPrivate(join(dir, 'refs', 'heads'));
    await writeFile(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(dir, 'objects', 'info', 'alternates'), `${join(mirror, 'objects')}\n`);
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Local git in a step repository (no network, no token), like `mirrorLocal` in the mirror. */
export function stepRepoGit(
  ctx: StepRepoCtx,
  dir: string,
  args: string[],
  config: [string, string][] = [],
): Promise<string> {
  return git({ ...localHostEnv(ctx, config), GIT_DIR: dir }, dir, args, 600_000);
}
