import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { type Finding, ok, problem } from './finding.ts';

/** Executors check repositories out under `WORKSPACE_DIR`: it must exist (or be creatable) and take a write. */
export async function checkWorkspace(config: Config): Promise<Finding[]> {
  const dir = resolve(config.WORKSPACE_DIR);
  const probe = join(dir, `.doctor-${process.pid}-${Date.now()}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    return [ok('workspace', `${dir} writable`)];
  } catch (err) {
    return [
      problem(
        'workspace',
        `${dir} is not writable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        `set WORKSPACE_DIR to a directory this user can write, or fix its owner (chown) and mode`,
      ),
    ];
  }
}
