import type { Config } from '../config.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, ok, problem } from './finding.ts';
import { githubGet } from './github-get.ts';

const CHECK = 'github';

/**
 * Token mode: the token works (`GET /user`), and can write where the bot works. A classic token
 * says its scopes in `x-oauth-scopes` (it needs `repo`, or `public_repo` for public repositories
 * only); a fine-grained token has no such header, so its write access is read per repository
 * from `CHAT_REPOS` (`permissions.push`).
 */
export async function checkGitHubToken(
  config: Config,
  token: string,
  timeoutMs: number,
  say: Say,
): Promise<Finding[]> {
  const base = config.GITHUB_API_URL;
  const user = await githubGet(base, '/user', `token ${token}`, timeoutMs);
  if (user.status === 401)
    return [problem(CHECK, say('github.token-refused'), say('github.token-refused.fix'))];
  if (user.status !== 200)
    return [
      problem(
        CHECK,
        say('github.user-refused', { status: user.status }),
        say('github.user-refused.fix', { base }),
      ),
    ];
  const login = String(user.body.login ?? '?');
  const scopes = user.headers.get('x-oauth-scopes');
  if (scopes !== null) {
    const list = scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const vars = { login, scopes: list.join(', ') };
    if (!list.includes('repo') && !list.includes('public_repo'))
      return [problem(CHECK, say('github.token-without-repo', vars), say('github.token-without-repo.fix'))];
    return [ok(CHECK, say('github.token-ok', vars))];
  }
  return fineGrained(config, token, login, timeoutMs, say);
}

/** A fine-grained token: push access on each `CHAT_REPOS` repository. */
async function fineGrained(
  config: Config,
  token: string,
  login: string,
  timeoutMs: number,
  say: Say,
): Promise<Finding[]> {
  const repos = [...new Set([...config.CHAT_REPOS.values()].flat())];
  const out: Finding[] = [];
  for (const repo of repos) {
    const r = await githubGet(config.GITHUB_API_URL, `/repos/${repo}`, `token ${token}`, timeoutMs);
    const push = (r.body.permissions as { push?: boolean } | undefined)?.push;
    if (r.status !== 200 || push !== true)
      out.push(
        problem(
          CHECK,
          r.status === 200
            ? say('github.token-cannot-push', { login, repo })
            : say('github.token-cannot-see', { login, repo, status: r.status }),
          say('github.token-repo.fix', { repo }),
        ),
      );
  }
  if (!out.length)
    out.push(
      ok(
        CHECK,
        repos.length
          ? say('github.fine-token-pushes', { login, repos: repos.join(', ') })
          : say('github.fine-token-ok', { login }),
      ),
    );
  return out;
}
