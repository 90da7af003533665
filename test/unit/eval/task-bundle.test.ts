import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oracleEdits } from '../../../src/eval/oracle-patch.ts';
import { taskSetHash } from '../../../src/eval/run-identity.ts';
import { EvalTaskError, loadTask } from '../../../src/eval/task.ts';
import { gitIn, makeTaskRepo, writeStartTree } from '../../../src/eval/task-repo.ts';

const root = mkdtempSync(join(tmpdir(), 'eval-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FIXED = join(import.meta.dirname, '../../fixtures/eval/tasks/fixed');
const SOURCE =
  'source:\n  repository: octo/widgets\n  commit: 0123456789abcdef0123456789abcdef01234567\n  url: https://github.com/octo/widgets/commit/0123456789abcdef0123456789abcdef01234567\n';

let n = 0;
/**
 * A git bundle of a history of two commits whose HEAD holds state.txt (`state`) and src/keep.txt;
 * the first commit held a file since removed.
 */
async function makeBundle(state: string): Promise<string> {
  const src = join(root, `src-${n++}`);
  mkdirSync(join(src, 'src'), { recursive: true });
  writeFileSync(join(src, 'old.txt'), 'gone\n');
  const commit = (msg: string) =>
    gitIn(src, root, '-c', 'user.name=a', '-c', 'user.email=a@b.invalid', 'commit', '-qm', msg);
  await gitIn(src, root, 'init', '-q', '-b', 'trunk');
  await gitIn(src, root, 'add', '-A');
  await commit('one');
  rmSync(join(src, 'old.txt'));
  writeFileSync(join(src, 'state.txt'), `${state}\n`);
  writeFileSync(join(src, 'src', 'keep.txt'), 'kept\n');
  await gitIn(src, root, 'add', '-A');
  await commit('two');
  const bundle = join(root, `${state.replaceAll(' ', '-')}.bundle`);
  await gitIn(src, root, 'bundle', 'create', '-q', bundle, 'HEAD', 'trunk');
  return bundle;
}
const BROKEN = await makeBundle('broken');

/** The `fixed` fixture with its `repo/` shipped as `repo.bundle` instead (`bundle`, BROKEN by default). */
function bundleTask(extraYaml = '', bundle = BROKEN): string {
  const dir = join(root, `real-${n++}`);
  cpSync(FIXED, dir, { recursive: true });
  rmSync(join(dir, 'repo'), { recursive: true });
  if (extraYaml)
    writeFileSync(join(dir, 'task.yaml'), readFileSync(join(FIXED, 'task.yaml'), 'utf8') + extraYaml);
  cpSync(bundle, join(dir, 'repo.bundle'));
  return dir;
}

function refusal(dir: string): string {
  try {
    loadTask(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(EvalTaskError);
    return (err as EvalTaskError).reason;
  }
  throw new Error('the task was accepted');
}

/** Issue 47 item 2: a real task names its origin and may ship its repository as a git bundle. */
describe('a task from a real repository', () => {
  it('reads source: and repo.bundle', async () => {
    const dir = bundleTask(SOURCE);
    const task = loadTask(dir);
    expect(task.repo).toEqual({ kind: 'bundle', path: join(dir, 'repo.bundle') });
    expect(task.source).toEqual({
      repository: 'octo/widgets',
      commit: '0123456789abcdef0123456789abcdef01234567',
      url: 'https://github.com/octo/widgets/commit/0123456789abcdef0123456789abcdef01234567',
    });
    expect(loadTask(FIXED).repo).toEqual({ kind: 'dir', path: join(FIXED, 'repo') });
  });

  it('refuses a bad source, both repo/ and repo.bundle, and a repo.bundle that is not a bundle', async () => {
    expect(refusal(bundleTask(SOURCE.replace('octo/widgets', 'widgets')))).toMatch(
      /^task\.yaml: source\.repository: owner\/name/,
    );
    expect(refusal(bundleTask(SOURCE.replace('0123456789abcdef01234567\n', '0123\n')))).toMatch(
      /source\.commit: a whole commit id/,
    );
    expect(refusal(bundleTask(SOURCE.replace('url: https:', 'url: http:')))).toMatch(/source\.url/);
    expect(refusal(bundleTask(`${SOURCE}  branch: main\n`))).toMatch(/branch/);
    const both = bundleTask();
    cpSync(join(FIXED, 'repo'), join(both, 'repo'), { recursive: true });
    expect(refusal(both)).toBe('holds both repo/ and repo.bundle: keep one');
    const fake = bundleTask();
    writeFileSync(join(fake, 'repo.bundle'), 'state.txt\n');
    expect(refusal(fake)).toMatch(/^repo\.bundle is not a git bundle/);
  });

  it('unpacks the bundle’s HEAD tree with no .git, and serves it as one fresh commit', async () => {
    const task = loadTask(bundleTask());
    const tree = join(root, `tree-${n++}`);
    await writeStartTree(task.repo, tree, root);
    expect(readdirSync(tree).sort()).toEqual(['src', 'state.txt']);
    expect(readFileSync(join(tree, 'state.txt'), 'utf8')).toBe('broken\n');
    await expect(writeStartTree(task.repo, tree, root)).rejects.toThrow(/is there already/);

    const world = join(root, `world-${n++}`);
    const bare = await makeTaskRepo(world, task.repo, false);
    expect(await gitIn(bare, root, 'log', '--format=%s', 'main')).toBe('start');
    expect((await gitIn(bare, root, 'ls-tree', '-r', '--name-only', 'main')).split('\n')).toEqual([
      'src/keep.txt',
      'state.txt',
    ]);
  });

  it('the oracle’s edits and the task set hash read the bundle', async () => {
    const dir = bundleTask();
    const task = loadTask(dir);
    expect(await oracleEdits(task.repo, task.patch)).toEqual([
      { name: 'read_file', arguments: { path: 'state.txt' } },
      { name: 'edit_file', arguments: { path: 'state.txt', old: 'broken\n', new: 'fixed\n' } },
    ]);
    const before = taskSetHash([task]);
    cpSync(await makeBundle('broken too'), join(dir, 'repo.bundle'));
    expect(existsSync(join(dir, 'repo'))).toBe(false);
    expect(taskSetHash([loadTask(dir)])).not.toBe(before);
  });
});
