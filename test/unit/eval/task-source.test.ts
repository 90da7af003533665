import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeSource } from '../../../src/eval/source-make.ts';
import { findClone, loadTasksWithSources } from '../../../src/eval/task-source.ts';
import { makeSourceRepo, type SourceRepo, sourceTask } from './source-repo.ts';

const root = mkdtempSync(join(tmpdir(), 'eval-source-'));
const sources = join(root, 'sources');
const cache = join(root, 'cache');
const tasks = join(root, 'tasks');
let repo: SourceRepo;
beforeAll(async () => {
  repo = await makeSourceRepo(root, sources);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const load = (ids: string[], dir?: string | null) =>
  loadTasksWithSources(tasks, ids, dir === null ? undefined : (dir ?? sources), cache);

/** Issue 47 item 2: a task from a public repository is its task.yaml; the rest is made from a clone. */
describe('a source task', () => {
  it('is made from the clone: the tree at the parent, the tests at the fix, the fix less its tests', async () => {
    sourceTask(tasks, 'made', repo.fix);
    const { tasks: got, errors, unavailable } = await load(['made']);
    expect([errors, unavailable]).toEqual([[], []]);
    const [task] = got;
    if (!task) throw new Error('no task');
    expect(task.repo.kind).toBe('dir');
    const at = (p: string) => join(task.repo.path, p);
    // The blobs' bytes: no eol=crlf conversion; the mode and the link as committed.
    expect(readFileSync(at('state.txt'), 'utf8')).toBe('broken\n');
    expect(readFileSync(at('notes.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(readFileSync(at('grade.sh'), 'utf8')).toBe('true\n');
    expect(lstatSync(at('bin/run.sh')).mode & 0o100).toBe(0o100);
    expect(readlinkSync(at('link'))).toBe('state.txt');
    expect(readFileSync(join(task.testsDir, 'grade.sh'), 'utf8')).toBe('grep -qx fixed state.txt\n');
    expect(task.patch).toMatch(/^diff --git a\/state\.txt b\/state\.txt\n/);
    expect(task.patch).toContain('-broken\n+fixed\n');
    expect(task.patch).not.toContain('grade.sh');
    expect(task.source?.commit).toBe(repo.fix);
  });

  it('with patch_has_tests: the reference fix is the whole commit, its test changes included', async () => {
    const dir = sourceTask(tasks, 'whole', repo.fix);
    writeFileSync(
      join(dir, 'task.yaml'),
      `${readFileSync(join(dir, 'task.yaml'), 'utf8')}patch_has_tests: true\n`,
    );
    const [task] = (await load(['whole'])).tasks;
    expect(task?.patch).toContain('-broken\n+fixed\n');
    expect(task?.patch).toContain('diff --git a/grade.sh b/grade.sh\n');
    expect(readFileSync(join(task?.testsDir ?? '', 'grade.sh'), 'utf8')).toBe('grep -qx fixed state.txt\n');
  });

  it('is not available, neither run nor an error, without a clone', async () => {
    sourceTask(tasks, 'away', repo.fix);
    for (const dir of [null, join(root, 'no-such-folder')]) {
      const { tasks: got, errors, unavailable } = await load(['away'], dir);
      expect([got, errors]).toEqual([[], []]);
      expect(unavailable.map((u) => u.taskId)).toEqual(['away']);
      expect(unavailable[0]?.reason).toMatch(/^not available: needs a clone of octo\/widgets \(/);
    }
    const { unavailable } = await load(['away'], null);
    expect(unavailable[0]?.reason).toBe('not available: needs a clone of octo/widgets (set EVAL_SOURCES)');
  });

  it('is an error when the commit is not in the clone, or a test path is not a file at the fix', async () => {
    const missing = '0123456789abcdef0123456789abcdef01234567';
    sourceTask(tasks, 'unknown-commit', missing);
    sourceTask(tasks, 'unknown-test', repo.fix, ['grade.sh', 'tests/nope.sh']);
    sourceTask(tasks, 'test-is-folder', repo.fix, ['bin']);
    const { tasks: got, errors } = await load(['unknown-commit', 'unknown-test', 'test-is-folder']);
    expect(got).toEqual([]);
    expect(errors.map((e) => e.reason)).toEqual([
      `commit ${missing} is not in the clone of octo/widgets (fetch it there, or check source.commit)`,
      `tests: tests/nope.sh is not a file in commit ${repo.fix} of octo/widgets`,
      `tests: bin is not a file in commit ${repo.fix} of octo/widgets`,
    ]);
  });

  it('refuses a folder that ships files of its own, tests: without a source, and a path out of the repository', async () => {
    const dir = sourceTask(tasks, 'own-repo', repo.fix);
    mkdirSync(join(dir, 'repo'));
    writeFileSync(join(dir, 'solution.patch'), '');
    const plain = join(tasks, 'no-source');
    cpSync(join(import.meta.dirname, '../../fixtures/eval/tasks/fixed'), plain, { recursive: true });
    writeFileSync(
      join(plain, 'task.yaml'),
      `${readFileSync(join(plain, 'task.yaml'), 'utf8')}tests: [grade.sh]\n`,
    );
    sourceTask(tasks, 'path-out', repo.fix, ['../grade.sh']);
    sourceTask(tasks, 'path-git', repo.fix, ['.git/config']);
    const { errors } = await load(['own-repo', 'no-source', 'path-out', 'path-git']);
    expect(errors.map((e) => e.reason)).toEqual([
      "a source task (tests: listed) is made from its repository's clone: remove repo, solution.patch",
      expect.stringMatching(/^task\.yaml: tests: tests: lists the test files of a source commit/),
      expect.stringMatching(/^task\.yaml: tests\.0: a relative path in the repository/),
      expect.stringMatching(/^task\.yaml: tests\.0: a relative path in the repository/),
    ]);
  });

  it('is made again when the cached files differ from the commits', async () => {
    const spec = { repository: 'octo/widgets', commit: repo.fix, tests: ['grade.sh'] };
    const first = await materializeSource(repo.mirror, spec, cache);
    expect(first.parent).toBe(repo.parent);
    writeFileSync(join(first.repo, 'state.txt'), 'fixed\n');
    writeFileSync(join(first.repo, 'extra.txt'), 'planted\n');
    writeFileSync(join(first.testsDir, 'grade.sh'), 'true\n');
    const again = await materializeSource(repo.mirror, spec, cache);
    expect(again.repo).toBe(first.repo);
    expect(readFileSync(join(again.repo, 'state.txt'), 'utf8')).toBe('broken\n');
    expect(() => lstatSync(join(again.repo, 'extra.txt'))).toThrow();
    expect(readFileSync(join(again.testsDir, 'grade.sh'), 'utf8')).toBe('grep -qx fixed state.txt\n');
  });

  it('finds a clone as <owner>+<name>/repo, <owner>+<name> or <owner>/<name>(.git)', async () => {
    expect(findClone(sources, 'octo/widgets')).toBe(repo.mirror);
    expect(findClone(sources, 'octo/gadgets')).toBeUndefined();
    const other = join(root, 'other');
    cpSync(repo.mirror, join(other, 'octo', 'widgets.git'), { recursive: true });
    expect(findClone(other, 'octo/widgets')).toBe(join(other, 'octo', 'widgets.git'));
    cpSync(repo.mirror, join(other, 'octo+widgets', '.git'), { recursive: true });
    expect(findClone(other, 'octo/widgets')).toBe(join(other, 'octo+widgets', '.git'));
  });
});
