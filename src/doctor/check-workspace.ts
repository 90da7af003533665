import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, ok, problem } from './finding.ts';

/** Executors check repositories out under `WORKSPACE_DIR`: it must exist (or be creatable) and take a write. */
export async function checkWorkspace(config: Config, say: Say): Promise<Finding[]> {
  const dir = resolve(config.WORKSPACE_DIR);
  const probe = join(dir, `.doctor-${process.pid}-${Date.now()}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    return [ok('workspace', say('workspace.ok', { dir }))];
  } catch (err) {
    const error = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return [
      problem('workspace', say('workspace.not-writable', { dir, error }), say('workspace.not-writable.fix')),
    ];
  }
}
