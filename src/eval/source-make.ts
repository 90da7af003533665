import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runProcess } from '../executor/workspace/run-process.ts';
import type { SourceFiles } from './task.ts';

/**
 * A source task's files made from a local clone of its repository (issue 47 item 2), as `repo/`,
 * `tests/` and `solution.patch` would be: the tree at the fix commit's parent, the listed test
 * files at the fix commit, and the fix's diff less those files. They go to a cache folder outside
 * the project (`<tmpdir>/switchyard-eval-sources/`), checked against the commits' trees on every
 * load and made again when they differ.
 *
 * git runs with a scratch repository of our own whose objects come from the clone (alternates), so
 * nothing of the clone's own configuration, hooks or attributes is used, and nothing is written
 * into it.
 */
/** Why a source task's files could not be made, in words. */
export class SourceError extends Error {
  override name = 'SourceError' as const;
}

/** What a source task says of its origin. */
export interface SourceSpec {
  repository: string;
  commit: string;
  tests: string[];
  /** The reference fix is the whole commit, its changes to the listed tests included. */
  patchHasTests?: boolean;
}

/** The made files and the parent commit the repository is at. */
export interface MadeSource extends SourceFiles {
  parent: string;
  /** Files in the repository at the parent. */
  files: number;
}

export const defaultCacheRoot = () => join(tmpdir(), 'switchyard-eval-sources');

/**
 * Makes (or finds already made and intact) a source task's files from `clone`, a git directory.
 * Throws `SourceError` when the commit is not in the clone, has no parent, a test path is not a
 * file in it, or the made files do not match the commits' trees.
 */
export async function materializeSource(
  clone: string,
  spec: SourceSpec,
  cacheRoot = defaultCacheRoot(),
): Promise<MadeSource> {
  privateFolder(cacheRoot);
  const key = `${spec.commit}-${createHash('sha256').update(spec.tests.join('\0')).digest('hex').slice(0, 12)}`;
  const dest = join(cacheRoot, key);
  if (existsSync(dest)) {
    try {
      return await checked(dest, clone, spec);
    } catch (err) {
      if (!(err instanceof SourceError)) throw err;
      // Not whole or changed since: made again below.
    }
  }
  const work = mkdtempSync(join(cacheRoot, `${key}.part-`));
  try {
    await build(work, clone, spec);
    rmSync(dest, { recursive: true, force: true });
    renameSync(work, dest);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return checked(dest, clone, spec);
}

/** The cache folder: made private, and refused when it is a link or someone else's. */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const mine = process.getuid ? st.uid === process.getuid() : true;
  if (!st.isDirectory() || !mine || (st.mode & 0o022) !== 0)
    throw new SourceError(`the cache folder ${dir} is not this user's own private folder`);
}

/** git with the scratch repository in `dir/git`, its objects from the clone; stdout whole, untrimmed. */
async function gitOut(dir: string, args: string[], index?: string, workTree?: string): Promise<string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_DIR: join(dir, 'git'),
    ...(index ? { GIT_INDEX_FILE: join(dir, 'git', index) } : {}),
    ...(workTree ? { GIT_WORK_TREE: workTree } : {}),
  };
  const r = await runProcess('git', args, { cwd: dir, env, timeoutMs: 300_000, capBytes: 256 * 1024 * 1024 });
  if (r.exitCode !== 0 || r.dropped) {
    const why = r.timedOut ? 'timed out' : r.dropped ? 'printed too much' : `exit ${r.exitCode}`;
    throw new SourceError(`git ${args[0]} failed (${why}): ${r.output.trim().slice(-400)}`);
  }
  return r.stdout;
}

/** The scratch repository: bare, empty config, objects from the clone, every attribute off. */
async function scratch(dir: string, clone: string): Promise<void> {
  const git = join(dir, 'git');
  if (!existsSync(git)) await gitOut(dir, ['init', '-q', '--bare', git]);
  writeFileSync(join(git, 'objects', 'info', 'alternates'), `${join(clone, 'objects')}\n`);
  mkdirSync(join(git, 'info'), { recursive: true });
  // No eol conversion, filter, ident or encoding: the files are the blobs' bytes.
  writeFileSync(join(git, 'info', 'attributes'), '* -text -eol -filter -ident -working-tree-encoding\n');
}

interface Entry {
  mode: string;
  type: string;
  oid: string;
}

/** Every entry of a commit's tree, by path. */
async function treeOf(dir: string, commit: string): Promise<Map<string, Entry>> {
  const out = await gitOut(dir, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  const entries = new Map<string, Entry>();
  for (const line of out.split('\0').filter(Boolean)) {
    const tab = line.indexOf('\t');
    const [mode, type, oid] = line.slice(0, tab).split(' ') as [string, string, string];
    entries.set(line.slice(tab + 1), { mode, type, oid });
  }
  return entries;
}

/** The commit and its (first) parent, each checked to be in the clone. */
async function commits(dir: string, spec: SourceSpec): Promise<{ parent: string }> {
  const where = `the clone of ${spec.repository}`;
  const type = await gitOut(dir, ['cat-file', '-t', spec.commit]).catch(() => '');
  if (type.trim() !== 'commit')
    throw new SourceError(
      `commit ${spec.commit} is not in ${where} (fetch it there, or check source.commit)`,
    );
  const parents = (await gitOut(dir, ['rev-list', '--parents', '-n', '1', spec.commit])).trim().split(' ');
  const parent = parents[1];
  if (!parent) throw new SourceError(`commit ${spec.commit} has no parent: there is no tree to start from`);
  return { parent };
}

/** The listed test files at the fix commit; each must be a file there. */
function testEntries(fix: Map<string, Entry>, spec: SourceSpec): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const path of spec.tests) {
    const e = fix.get(path);
    if (e?.type !== 'blob' || e.mode === '120000')
      throw new SourceError(`tests: ${path} is not a file in commit ${spec.commit} of ${spec.repository}`);
    out.set(path, e);
  }
  return out;
}

async function build(work: string, clone: string, spec: SourceSpec): Promise<void> {
  await scratch(work, clone);
  const { parent } = await commits(work, spec);
  const start = await treeOf(work, parent);
  const sub = [...start].find(([, e]) => e.type === 'commit');
  if (sub)
    throw new SourceError(`the tree at ${parent} holds a submodule (${sub[0]}), which a task cannot carry`);
  const tests = [...testEntries(await treeOf(work, spec.commit), spec).keys()];
  const repo = join(work, 'repo');
  const testsDir = join(work, 'tests');
  mkdirSync(repo);
  mkdirSync(testsDir);
  await gitOut(work, ['read-tree', parent], 'index-repo', repo);
  await gitOut(work, ['checkout-index', '-a', '-f'], 'index-repo', repo);
  await gitOut(work, ['read-tree', spec.commit], 'index-tests', testsDir);
  await gitOut(work, ['checkout-index', '-f', '--', ...tests], 'index-tests', testsDir);
  for (const index of ['index-repo', 'index-tests']) rmSync(join(work, 'git', index));
}

/**
 * The made files of `dest`, each checked against the commits' trees (every file of `repo/` is the
 * parent's, with nothing more or less; each of `tests/` is the fix's), and the fix's diff less the
 * test files, made now from the clone.
 */
async function checked(dest: string, clone: string, spec: SourceSpec): Promise<MadeSource> {
  await scratch(dest, clone);
  const { parent } = await commits(dest, spec);
  const start = await treeOf(dest, parent);
  const repo = join(dest, 'repo');
  const testsDir = join(dest, 'tests');
  const differs = sameFiles(repo, start);
  if (differs) throw new SourceError(`the made repository differs from ${parent}'s tree: ${differs}`);
  const testsDiffer = sameFiles(testsDir, testEntries(await treeOf(dest, spec.commit), spec));
  if (testsDiffer) throw new SourceError(`the made tests differ from ${spec.commit}'s files: ${testsDiffer}`);
  const diff = (paths: string[]) =>
    gitOut(dest, [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      parent,
      spec.commit,
      '--',
      ...paths,
    ]);
  const fix = await diff(spec.tests.map((p) => `:(exclude,top,literal)${p}`));
  if (!fix.trim()) throw new SourceError(`commit ${spec.commit} changes nothing but the listed tests`);
  const patch = spec.patchHasTests ? await diff([]) : fix;
  writeFileSync(join(dest, 'solution.patch'), patch);
  return { repo, testsDir, patch, parent, files: start.size };
}

/** '' when the files under `dir` are exactly `want` (paths, modes, bytes); else what differs first. */
function sameFiles(dir: string, want: Map<string, Entry>): string {
  const have = filesUnder(dir);
  for (const [path, e] of want) {
    const got = have.get(path);
    if (!got) return `${path} is missing`;
    if (got.mode !== e.mode || got.oid !== e.oid) return `${path} is not the commit's`;
  }
  for (const path of have.keys()) if (!want.has(path)) return `${path} is not the commit's`;
  return '';
}

/** Every file and link under `dir` with its git mode and blob id, as git would store it. */
function filesUnder(dir: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (at: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, e.name);
      const rel = relative(dir, path);
      if (e.isDirectory()) walk(path);
      else if (e.isSymbolicLink()) out.set(rel, entry('120000', Buffer.from(readlinkSync(path))));
      else if (e.isFile()) {
        const exec = (lstatSync(path).mode & 0o100) !== 0;
        out.set(rel, entry(exec ? '100755' : '100644', readFileSync(path)));
      } else out.set(rel, { mode: 'other', type: 'other', oid: '' });
    }
  };
  walk(dir);
  return out;
}

function entry(mode: string, bytes: Buffer): Entry {
  const oid = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  return { mode, type: 'blob', oid };
}
