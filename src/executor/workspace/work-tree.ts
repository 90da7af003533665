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

/** How a `WorkTree` is read: `wip` adds the work-in-progress commit; `proof`, see `proofSteps`. */
interface WorkTreeOptions {
  wip?: boolean;
  proof?: boolean;
}

/**
 * For a tree that proves what a verification ran on (R-C6), none of what a command can write into
 * `.git` may change it: the index is made afresh from HEAD (a copied one keeps assume-unchanged
 * and skip-worktree flags, and its stat cache can be forged, so an edited file would be taken for
 * HEAD's), untracked files that only `.git/info/exclude` or `core.excludesFile` ignore are added
 * (the committed `.gitignore` alone decides), and filter drivers in the checkout's config — none
 * comes from anywhere else in the sandbox — end the script with exit 3, since `git add` would store
 * what their `clean` program answers instead of the file.
 */
const proofSteps = {
  start: `if git config --name-only --get-regexp '^filter[.]' >/dev/null; then exit 3; fi
git read-tree HEAD`,
  add: 'git ls-files -z -o --exclude-per-directory=.gitignore | xargs -0 -r git add -f --',
};

/**
 * The work tree as a tree object, through a temporary index (a copy of the checkout's, so only
 * files whose stat changed are hashed again; afresh from HEAD with `proof`): the checkout's own
 * index, HEAD and branches stay as they are. The index path is asked before `GIT_INDEX_FILE`
 * points elsewhere. With `wip`, also the work-in-progress commit of that tree on HEAD (issue 19's
 * workspace step).
 */
const script = (o: WorkTreeOptions) => `set -e
index=$(git rev-parse --git-path index)
dir=$(mktemp -d)
export GIT_INDEX_FILE="$dir/index"
${o.proof ? proofSteps.start : 'cp "$index" "$GIT_INDEX_FILE" 2>/dev/null || git read-tree HEAD'}
git add -A
${o.proof ? proofSteps.add : ''}
tree=$(git write-tree)
echo "$tree"
git symbolic-ref -q HEAD || echo
git rev-parse HEAD 'HEAD^{tree}'
${o.wip ? 'git commit-tree "$tree" -p HEAD -m "switchyard: work in progress"' : ''}
rm -rf "$dir"`;

/**
 * Reads the checkout's `WorkTree` in the sandbox (the checkout's config may name programs, issue
 * 13). It writes objects only (blobs and trees, the commit with `wip`), never refs or the index.
 */
export async function workTree(
  config: Config,
  ws: Pick<Workspace, 'dir' | 'home'>,
  login: string,
  opts: WorkTreeOptions = {},
): Promise<WorkTree> {
  const got = await runOnCheckout(config, ws, ['sh', '-c', script(opts)], {
    writable: true,
    timeoutMs: 120_000,
    network: 'none',
    env: localGitEnv(login),
  });
  if (!got.ok) throw new GitError(got.refusal);
  const [tree = '', headRef = '', head = '', headTree = '', wip = ''] = got.result.stdout
    .split('\n')
    .map((l) => l.trim());
  if (opts.proof && got.result.exitCode === 3)
    throw new GitError(
      'refused: the checkout’s .git/config names filter drivers (filter.*), and git would record what their programs answer instead of the files; remove them (git config --remove-section filter.<name>)',
    );
  const shas = [tree, head, headTree, ...(opts.wip ? [wip] : [])];
  if (got.result.exitCode !== 0 || !shas.every(isCommitId))
    throw new GitError(`reading the work tree failed: ${got.result.output.trim().slice(-400)}`);
  return { tree, headRef, head, headTree, ...(opts.wip ? { wip } : {}) };
}
