import type { Config } from '../../config.ts';
import { localGitEnv } from '../sandbox/local-git.ts';
import { runOnCheckout } from '../sandbox/sandbox-command.ts';
import { GitError, isCommitId } from './run-git.ts';
import type { Workspace } from './workspace-record.ts';

/** The checkout's state as git sees it: its work tree as a tree object, HEAD, its tree and branch. */
export interface WorkTree {
  /** The whole working tree — changed, new and deleted files, not ignored ones — as a tree id. */
  tree: string;
  /** `refs/heads/<branch>` HEAD is on, or '' when detached. */
  headRef: string;
  head: string;
  /** HEAD's own tree: equal to `tree` when nothing is uncommitted. */
  headTree: string;
  /** The work-in-progress commit of `tree` on HEAD, when asked for. */
  wip?: string;
}

/**
 * The work tree as a tree object, through a temporary index (a copy of the checkout's, so only
 * files whose stat changed are hashed again): the checkout's own index, HEAD and branches stay as
 * they are. The index path is asked before `GIT_INDEX_FILE` points elsewhere. With `wip`, also the
 * work-in-progress commit of that tree on HEAD (issue 19's workspace step).
 */
const script = (wip: boolean) => `set -e
index=$(git rev-parse --git-path index)
dir=$(mktemp -d)
export GIT_INDEX_FILE="$dir/index"
cp "$index" "$GIT_INDEX_FILE" 2>/dev/null || git read-tree HEAD
git add -A
tree=$(git write-tree)
echo "$tree"
git symbolic-ref -q HEAD || echo
git rev-parse HEAD 'HEAD^{tree}'
${wip ? 'git commit-tree "$tree" -p HEAD -m "switchyard: work in progress"' : ''}
rm -rf "$dir"`;

/**
 * Reads the checkout's `WorkTree` in the sandbox (the checkout's config may name programs, issue
 * 13). It writes objects only (blobs and trees, the commit with `wip`), never refs or the index.
 */
export async function workTree(
  config: Config,
  ws: Pick<Workspace, 'dir' | 'home'>,
  login: string,
  opts: { wip?: boolean } = {},
): Promise<WorkTree> {
  const got = await runOnCheckout(config, ws, ['sh', '-c', script(opts.wip ?? false)], {
    writable: true,
    timeoutMs: 120_000,
    network: 'none',
    env: localGitEnv(login),
  });
  if (!got.ok) throw new GitError(got.refusal);
  const [tree = '', headRef = '', head = '', headTree = '', wip = ''] = got.result.stdout
    .split('\n')
    .map((l) => l.trim());
  const shas = [tree, head, headTree, ...(opts.wip ? [wip] : [])];
  if (got.result.exitCode !== 0 || !shas.every(isCommitId))
    throw new GitError(`reading the work tree failed: ${got.result.output.trim().slice(-400)}`);
  return { tree, headRef, head, headTree, ...(opts.wip ? { wip } : {}) };
}
