import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { runProcess } from '../executor/workspace/run-process.ts';
import { testFiles } from './lay-tests.ts';
import type { EvalTask } from './task.ts';
import { alternativePatches, reviewPatches } from './task-patches.ts';

/**
 * What a run's numbers belong to (issue 47, `meta` of `results.json`): the product's commit, the
 * model settings every task's product ran with, and a hash of the task set — so two results can be
 * compared only when they measured the same thing.
 */

export interface ModelSettings {
  mainModel: string;
  executorModel: string;
  thinking: { main: string; executor: string };
  effort: { main: string; executor: string };
  maxTokens: number;
}

export function modelSettingsOf(c: Config): ModelSettings {
  return {
    mainModel: c.mainModel,
    executorModel: c.executorModel,
    thinking: { main: c.MAIN_THINKING, executor: c.EXECUTOR_THINKING },
    effort: { main: c.MAIN_REASONING_EFFORT, executor: c.EXECUTOR_REASONING_EFFORT },
    maxTokens: c.LLM_MAX_TOKENS,
  };
}

const PRODUCT_ROOT = resolve(import.meta.dirname, '../..');

/** The product's commit (`git rev-parse HEAD` of its own checkout, `-dirty` with changes); null without git. */
export async function productCommit(root = PRODUCT_ROOT): Promise<string | null> {
  if (!existsSync(join(root, '.git'))) return null;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const head = await runProcess('git', ['rev-parse', 'HEAD'], { cwd: root, env, timeoutMs: 10_000 });
  if (head.exitCode !== 0) return null;
  const dirty = await runProcess('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: root,
    env,
    timeoutMs: 30_000,
  });
  return `${head.output.trim()}${dirty.exitCode === 0 && dirty.output.trim() ? '-dirty' : ''}`;
}

/**
 * SHA-256 over the tasks run, in id order: each one's id, `task.yaml`, `solution.patch` (and its
 * alternatives and review parts, issue 47), every
 * file of `repo/` (or the bytes of `repo.bundle`) and of `tests/` by path. Any change to what is
 * asked, given or graded changes it.
 */
export function taskSetHash(tasks: EvalTask[]): string {
  const h = createHash('sha256');
  const add = (label: string, bytes: Buffer | string) => {
    h.update(`${label}\0${bytes.length}\0`);
    h.update(bytes);
  };
  for (const t of [...tasks].sort((a, b) => a.id.localeCompare(b.id))) {
    add('task', t.id);
    add('task.yaml', readFileSync(join(t.dir, 'task.yaml')));
    add('solution.patch', t.patch);
    for (const p of [...alternativePatches(t), ...reviewPatches(t)]) add(p.name, p.text);
    const addFiles = (dir: string, name: string) => {
      for (const f of testFiles(dir)) add(`${name}/${f}`, readFileSync(join(dir, f)));
    };
    if (t.repo.kind === 'bundle') add('repo.bundle', readFileSync(t.repo.path));
    else addFiles(t.repo.path, 'repo');
    addFiles(t.testsDir, 'tests');
  }
  return h.digest('hex');
}
