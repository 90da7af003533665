import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { defaultCacheRoot, materializeSource, SourceError, type SourceSpec } from './source-make.ts';
import {
  EvalTaskError,
  EvalTaskUnavailable,
  type LoadedTasks,
  loadTasks,
  type SourceFiles,
  type SourceLookup,
  TaskYaml,
} from './task.ts';

/**
 * Source tasks (issue 47 item 2): a task taken from a public repository's history is committed as
 * its `task.yaml` alone — what we wrote and the facts of its origin, none of the repository's code.
 * Its files are made from a local clone of that repository (`source-make.ts`), found under the
 * sources folder (`--sources DIR`, `EVAL_SOURCES`); without one the task is not available: listed,
 * never run or counted.
 */

/**
 * The git directory of `repository`'s clone under `sourcesDir`: `<owner>+<name>/repo` (a bare
 * mirror), `<owner>+<name>`, or `<owner>/<name>` (`.git` or not); a work tree's `.git` is taken.
 */
export function findClone(sourcesDir: string, repository: string): string | undefined {
  const [owner, name] = repository.split('/') as [string, string];
  const flat = join(sourcesDir, `${owner}+${name}`);
  for (const at of [
    join(flat, 'repo'),
    flat,
    join(sourcesDir, owner, `${name}.git`),
    join(sourcesDir, owner, name),
  ]) {
    if (isGitDir(join(at, '.git'))) return resolve(at, '.git');
    if (isGitDir(at)) return resolve(at);
  }
  return undefined;
}

function isGitDir(at: string): boolean {
  return isDir(join(at, 'objects')) && existsSync(join(at, 'HEAD'));
}

function isDir(at: string): boolean {
  try {
    return lstatSync(at).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every task under `root` (or the ids in `only`), a source task's files made from its clone under
 * `sourcesDir` (`EVAL_SOURCES`). Without a clone a source task is unavailable; a clone that lacks
 * the commit or a test file makes it an error.
 */
export async function loadTasksWithSources(
  root: string,
  only: string[] | undefined,
  sourcesDir: string | undefined,
  cacheRoot = defaultCacheRoot(),
): Promise<LoadedTasks> {
  const made = new Map<string, SourceFiles | EvalTaskError>();
  const ids = only ?? (isDir(root) ? readdirSync(root) : []);
  for (const id of sourcesDir ? ids : []) {
    const spec = sourceSpecOf(join(root, id));
    if (!spec) continue;
    const clone = findClone(sourcesDir as string, spec.repository);
    if (!clone) {
      const [owner, name] = spec.repository.split('/');
      made.set(
        id,
        new EvalTaskUnavailable(
          id,
          spec.repository,
          `none in ${sourcesDir}: git clone --mirror https://github.com/${spec.repository} "${join(sourcesDir as string, `${owner}+${name}`, 'repo')}"`,
        ),
      );
      continue;
    }
    try {
      made.set(id, await materializeSource(clone, spec, cacheRoot));
    } catch (err) {
      if (!(err instanceof SourceError)) throw err;
      made.set(id, new EvalTaskError(id, err.message));
    }
  }
  const lookup: SourceLookup = (id) => made.get(id);
  return loadTasks(root, only, lookup);
}

/** One line per source task that is not available, as `npm run eval` lists them before it starts. */
export function unavailableLines(unavailable: { taskId: string; reason: string }[]): string[] {
  return unavailable.map((u) => `SKIPPED ${u.taskId}: ${u.reason}`);
}

/** A task folder's source and test paths when its task.yaml is a valid source task's; loadTask says what else is wrong. */
function sourceSpecOf(dir: string): SourceSpec | undefined {
  try {
    const t = TaskYaml.safeParse(parseYaml(readFileSync(join(dir, 'task.yaml'), 'utf8')));
    if (!t.success || !t.data.tests || !t.data.source) return undefined;
    const { repository, commit } = t.data.source;
    return { repository, commit, tests: t.data.tests, patchHasTests: t.data.patch_has_tests ?? false };
  } catch {
    return undefined;
  }
}
