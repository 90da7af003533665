import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn } from '../../../src/eval/task-repo.ts';

/**
 * A small public repository's history, made with real git for the source-task tests (issue 47):
 * a start commit, then a fix that changes state.txt from "broken" to "fixed" and the test
 * grade.sh with it. `mirror` is a bare mirror clone at `<sources>/octo+widgets/repo`, as
 * `git clone --mirror` makes it.
 */
export interface SourceRepo {
  parent: string;
  fix: string;
  mirror: string;
}

const who = ['-c', 'user.name=a', '-c', 'user.email=a@b.invalid'];

export async function makeSourceRepo(root: string, sources: string): Promise<SourceRepo> {
  const work = join(root, `work-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(work, 'bin'), { recursive: true });
  writeFileSync(join(work, 'state.txt'), 'broken\n');
  writeFileSync(join(work, 'grade.sh'), 'true\n');
  writeFileSync(join(work, 'bin', 'run.sh'), '#!/bin/sh\necho run\n');
  chmodSync(join(work, 'bin', 'run.sh'), 0o755);
  symlinkSync('state.txt', join(work, 'link'));
  // Attributes a checkout would apply (crlf) must not change the bytes a task is made of.
  writeFileSync(join(work, 'notes.txt'), 'one\ntwo\n');
  writeFileSync(join(work, '.gitattributes'), 'notes.txt text eol=crlf\n');
  await gitIn(work, root, 'init', '-q', '-b', 'trunk');
  await gitIn(work, root, 'add', '-A');
  await gitIn(work, root, ...who, 'commit', '-qm', 'start');
  writeFileSync(join(work, 'state.txt'), 'fixed\n');
  writeFileSync(join(work, 'grade.sh'), 'grep -qx fixed state.txt\n');
  await gitIn(work, root, 'add', '-A');
  await gitIn(work, root, ...who, 'commit', '-qm', 'Fix the state');
  const parent = await gitIn(work, root, 'rev-parse', 'HEAD^');
  const fix = await gitIn(work, root, 'rev-parse', 'HEAD');
  const mirror = join(sources, 'octo+widgets', 'repo');
  await gitIn(root, root, 'clone', '-q', '--mirror', work, mirror);
  rmSync(work, { recursive: true, force: true });
  return { parent, fix, mirror };
}

/** A source task's folder: task.yaml alone, naming `fix` and its test files. */
export function sourceTask(tasks: string, id: string, fix: string, tests = ['grade.sh']): string {
  const dir = join(tasks, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'task.yaml'),
    [
      'request: Fix the state file.',
      'channel: github-issue',
      'check: sh grade.sh',
      'split: test',
      'source:',
      '  repository: octo/widgets',
      `  commit: ${fix}`,
      `  url: https://github.com/octo/widgets/commit/${fix}`,
      'tests:',
      ...tests.map((t) => `  - ${t}`),
      '',
    ].join('\n'),
  );
  return dir;
}
