import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, opendir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Ctx } from '../../context.ts';
import { assertOwnGitDir } from './checkout-git.ts';
import { mirrorLocal, mirrorRoot } from './mirror.ts';
import { mkdirPrivate } from './private-dir.ts';
import { GitError, isCommitId } from './run-git.ts';
import { stepRepoGit } from './step-repo.ts';

/** Deeper than git ever nests an object store (`objects/info/commit-graphs`, a quarantine's `pack`). */
const MAX_DEPTH = 8;

const refuse = (why: string) => new GitError(`refused: the checkout’s object store ${why} (issue 13)`);

/**
 * The checkout's object store, if it is one the host may read: a real directory of the
 * checkout's own, with no alternates (which could lend it another ticket's objects), and nothing
 * at any depth but folders and regular files. The host's git follows a link even at the
 * loose-object level (`objects/ab/<38 hex>` naming another ticket's or repository's object would
 * be imported and pushed as this ticket's), and a FIFO there would hold the fetch until its
 * time-out. No command runs in the checkout while this reads it.
 */
async function checkoutObjects(dir: string): Promise<string> {
  const objects = join(await assertOwnGitDir(dir), 'objects');
  const st = await lstat(objects).catch(() => undefined);
  if (!st?.isDirectory()) throw refuse('is not a directory');
  for (const alt of ['info/alternates', 'info/http-alternates'])
    if (await lstat(join(objects, alt)).catch(() => undefined)) throw refuse(`has ${alt}; remove it`);
  await onlyFilesIn(objects, objects, 0);
  return objects;
}

/**
 * Checks a folder's entries as they are read, one open folder per level (issue 45: the whole
 * store listed at once held every entry of a million-file store in memory).
 */
async function onlyFilesIn(objects: string, dir: string, depth: number): Promise<void> {
  if (depth > MAX_DEPTH) throw refuse(`nests folders deeper than ${MAX_DEPTH} (${relative(objects, dir)})`);
  for await (const e of await opendir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory()) await onlyFilesIn(objects, path, depth + 1);
    else if (!e.isFile())
      throw refuse(
        e.isSymbolicLink()
          ? `links out (${relative(objects, path)})`
          : `holds a ${kindOf(e)} (${relative(objects, path)})`,
      );
  }
}

const kindOf = (e: Dirent) => (e.isFIFO() ? 'FIFO' : e.isSocket() ? 'socket' : 'device');

/**
 * Brings commit `sha` and what it needs from the checkout into the host's mirror, as
 * `refs/sy/tickets/<ticket>` (issue 13: "push by fetching the checkout's commit into the
 * mirror"), or as `ref` into the step repository `into` (a workspace step's work-in-progress
 * commit, issues 19 and 45: never into the mirror). The mirror fetches from a scratch repository the host makes for the purpose, whose
 * config is the host's and whose objects are the checkout's (by alternates): nothing of the
 * checkout's config, hooks or attributes takes part, and every object is checked (fsck).
 */
export async function importCommit(
  ctx: Pick<Ctx, 'config' | 'keys'>,
  repo: string,
  dir: string,
  ticketId: string,
  sha: string,
  ref = `refs/sy/tickets/${ticketId}`,
  into?: string,
) {
  if (!isCommitId(sha)) throw new GitError(`refused: "${sha}" is not a commit id`);
  const objects = await checkoutObjects(dir);
  const { tmp } = mirrorRoot(ctx);
  await mkdirPrivate(tmp);
  const scratch = join(tmp, `import-${randomUUID().slice(0, 8)}`);
  try {
    await writeScratchRepo(scratch, objects, sha);
    const fetch = ['fetch', '-q', '--no-tags', '--no-write-fetch-head', scratch, `+refs/heads/import:${ref}`];
    const fsck: [string, string][] = [['fetch.fsckObjects', 'true']];
    await (into ? stepRepoGit(ctx, into, fetch, fsck) : mirrorLocal(ctx, repo, fetch, fsck));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The scratch repository as files, with no git process: what `git init --bare` and `update-ref`
 * would leave that a fetch reads (HEAD, the one branch, the borrowed object store), and no config
 * at all. The commit's objects are checked where they land (fsck in the mirror's fetch), so a
 * sha the checkout lacks fails there.
 */
async function writeScratchRepo(scratch: string, objects: string, sha: string): Promise<void> {
  await mkdirPrivate(join(scratch, 'objects', 'info'));
  await mkdirPrivate(join(scratch, 'refs', 'heads'));
  await writeFile(join(scratch, 'HEAD'), 'ref: refs/heads/import\n');
  await writeFile(join(scratch, 'objects', 'info', 'alternates'), `${objects}\n`);
  await writeFile(join(scratch, 'refs', 'heads', 'import'), `${sha}\n`);
}
