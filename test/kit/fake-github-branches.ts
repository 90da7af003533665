/**
 * Branches of the fake GitHub, as `GET /repos/{owner}/{repo}/branches/{branch}` answers them:
 * `{ name, commit: { sha, commit: { author, committer, message }, author, committer }, protected }`,
 * where the commit's `author` is the GitHub account its author email belongs to, or null when no
 * account has that email. An unknown branch is `404 Branch not found`, as GitHub answers it.
 */

export interface FakeBranch {
  repo: string;
  name: string;
  sha: string;
  /** The GitHub account of the tip commit's author; null when its email belongs to none. */
  author: { login: string; type: 'User' | 'Bot' } | null;
  /** The name in the commit itself (`commit.author.name`). */
  authorName: string;
  message: string;
}

type Reply = { status: number; body?: unknown };

export function createBranches() {
  const branches: FakeBranch[] = [];
  const add = (
    repo: string,
    b: { name: string; author: FakeBranch['author']; authorName?: string; message?: string },
  ): FakeBranch => {
    const branch: FakeBranch = {
      repo,
      name: b.name,
      sha: (branches.length + 1).toString(16).padStart(40, 'c'),
      author: b.author,
      authorName: b.authorName ?? b.author?.login ?? 'someone',
      message: b.message ?? 'Work in progress',
    };
    branches.push(branch);
    return branch;
  };
  /** The route's answer; `name` is the branch as it appears in the URL (percent-encoded). */
  const get = (repo: string, name: string): Reply => {
    const b = branches.find((x) => x.repo === repo && x.name === decodeURIComponent(name));
    if (!b)
      return {
        status: 404,
        body: {
          message: 'Branch not found',
          documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch',
          status: '404',
        },
      };
    const who = { name: b.authorName, email: `${b.authorName}@example.com`, date: '2026-12-01T10:00:00Z' };
    const account = b.author ? { login: b.author.login, type: b.author.type, id: 1000 } : null;
    return {
      status: 200,
      body: {
        name: b.name,
        commit: {
          sha: b.sha,
          commit: { author: who, committer: who, message: b.message },
          author: account,
          committer: account,
        },
        protected: false,
      },
    };
  };
  return { branches, add, get };
}
