import { randomUUID } from 'node:crypto';
import { chmod, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { TokenPurpose } from '../../channels/github/token-scope.ts';
import type { Ctx } from '../../context.ts';
import { cloneUrlProblem, gitProtocols } from './git-policy.ts';
import { githubAccess } from './github-access.ts';
import { hostGitEnv } from './host-git-env.ts';
import { mkdirPrivate, PRIVATE_MODE } from './private-dir.ts';
import { GitError, git } from './run-git.ts';

/** The repository a mirror serves: its name and the `clone_url` GitHub gave for it. */
export interface MirrorRepo {
  repo: string;
  cloneUrl: string;
}

type MirrorCtx = Pick<Ctx, 'config' | 'keys'>;

/**
 * Where the host keeps its bare mirrors, beside the tickets' checkouts but never inside one: the
 * sandbox binds a ticket's checkout and home only, so no command sees or writes these (issue 13).
 * `.home` is the empty HOME of the host's git; `.tmp` holds short-lived import repositories.
 */
export function mirrorRoot(ctx: MirrorCtx) {
  const root = join(resolve(ctx.config.WORKSPACE_DIR, ctx.keys.prefix), '.mirrors');
  return { root, home: join(root, '.home'), tmp: join(root, '.tmp') };
}

/** The bare mirror of `owner/name`. */
export function mirrorDir(ctx: MirrorCtx, repo: string): string {
  const [owner = '', name = ''] = repo.toLowerCase().split('/');
  if (!/^[\w.-]+$/.test(owner) || !/^[\w.-]+$/.test(name) || owner.startsWith('.') || name.startsWith('.'))
    throw new GitError(`"${repo}" is not a repository name`);
  return join(mirrorRoot(ctx).root, owner, `${name}.git`);
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** The host's git environment for local work (no network, no token): only `file` transfers. */
export function localHostEnv(ctx: MirrorCtx, config: [string, string][] = []) {
  return hostGitEnv({ home: mirrorRoot(ctx).home, protocols: ['file'], config });
}

/**
 * The mirror, made on first use: `git init --bare` in a scratch directory renamed into place, so
 * two workers never share a half-made one. Its config is the host's alone.
 */
export async function ensureMirror(ctx: MirrorCtx, repo: string): Promise<string> {
  const dir = mirrorDir(ctx, repo);
  if (await exists(join(dir, 'HEAD'))) return dir;
  const { home, tmp } = mirrorRoot(ctx);
  await mkdirPrivate(home);
  await mkdirPrivate(tmp);
  await mkdirPrivate(dirname(dir));
  const scratch = join(tmp, `init-${randomUUID().slice(0, 8)}`);
  try {
    await git(localHostEnv(ctx), tmp, ['init', '-q', '--bare', scratch]);
    await chmod(scratch, PRIVATE_MODE);
    await rename(scratch, dir).catch(async (err: unknown) => {
      if (!(await exists(join(dir, 'HEAD')))) throw err;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Network git in the mirror (clone, fetch, ls-remote, push): the `clone_url` checked against the
 * protocol allow-list, and the token — minted for this repository and `purpose` in App mode —
 * sent as a header to its origin only. Nothing of any checkout takes part.
 */
export async function mirrorNet(
  ctx: Ctx,
  r: MirrorRepo,
  purpose: TokenPurpose,
  args: string[],
  timeoutMs = 600_000,
): Promise<string> {
  const protocols = gitProtocols(ctx.config);
  const problem = cloneUrlProblem(r.cloneUrl, protocols);
  if (problem) throw new GitError(`refused: ${problem}`);
  const dir = await ensureMirror(ctx, r.repo);
  const token = await githubAccess(ctx).token(r.repo, purpose);
  const env = hostGitEnv({
    home: mirrorRoot(ctx).home,
    protocols,
    auth: { url: r.cloneUrl, token },
  });
  return git({ ...env, GIT_DIR: dir }, dir, args, timeoutMs);
}

/** Local git in the mirror (rev-parse, cat-file, update-ref): no network, no token. */
export async function mirrorLocal(
  ctx: MirrorCtx,
  repo: string,
  args: string[],
  config: [string, string][] = [],
): Promise<string> {
  const dir = await ensureMirror(ctx, repo);
  return git({ ...localHostEnv(ctx, config), GIT_DIR: dir }, dir, args, 600_000);
}

/**
 * Fetches `refspecs` from GitHub into the mirror. Tickets of one repository share it: when two
 * fetches race for the same ref, git refuses one ("cannot lock ref"), which is tried once more.
 */
export async function fetchIntoMirror(ctx: Ctx, r: MirrorRepo, refspecs: string[]): Promise<string> {
  const args = ['fetch', '-q', '--no-tags', '--no-write-fetch-head', r.cloneUrl, ...refspecs];
  try {
    return await mirrorNet(ctx, r, 'fetch', args);
  } catch (err) {
    if (!(err instanceof GitError) || !/cannot lock ref|unable to lock/i.test(err.message)) throw err;
    await new Promise((resolve) => setTimeout(resolve, 200));
    return mirrorNet(ctx, r, 'fetch', args);
  }
}

/** The sha of a ref at GitHub (`refs/heads/<branch>`, `refs/pull/<n>/head`), or undefined. */
export async function remoteSha(ctx: Ctx, r: MirrorRepo, ref: string): Promise<string | undefined> {
  const out = await mirrorNet(ctx, r, 'fetch', ['ls-remote', r.cloneUrl, ref], 120_000);
  return out.split(/\s/)[0] || undefined;
}
