import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { commandOwner } from '../executor/sandbox/probe-sandbox.ts';
import { openWorkspaceFolders } from '../executor/workspace/close-workspace.ts';
import { mkdirPrivate } from '../executor/workspace/private-dir.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, ok, problem } from './finding.ts';

/**
 * Executors check repositories out under `WORKSPACE_DIR`: it must exist (or be creatable), take a
 * write, and be closed to other users (issue 45: checkouts and mirrors of private repositories,
 * and whatever a command left in them, were readable and runnable by any local user).
 */
export async function checkWorkspace(config: Config, say: Say): Promise<Finding[]> {
  const dir = resolve(config.WORKSPACE_DIR);
  const probe = join(dir, `.doctor-${process.pid}-${Date.now()}`);
  try {
    await mkdirPrivate(dir);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    // Issue 45: with commands run as a uid of their own, WORKSPACE_DIR lets them through (0711).
    const open = await openWorkspaceFolders(dir, config.KEY_PREFIX, Boolean(await commandOwner(config)));
    const first = open[0];
    if (!first) return [ok('workspace', say('workspace.ok', { dir }))];
    const mode = first.mode.toString(8).padStart(4, '0');
    const found = say('workspace.open', { count: String(open.length), first: first.dir, mode });
    return [problem('workspace', found, say('workspace.open.fix', { dir }))];
  } catch (err) {
    const error = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return [
      problem('workspace', say('workspace.not-writable', { dir, error }), say('workspace.not-writable.fix')),
    ];
  }
}
