import type { Config } from '../config.ts';
import { type Finding, ok, problem } from './finding.ts';
import { githubGet } from './github-get.ts';

const CHECK = 'github';

/**
 * Token mode: the token works (`GET /user`), and can write where the bot works. A classic token
 * says its scopes in `x-oauth-scopes` (it needs `repo`, or `public_repo` for public repositories
 * only); a fine-grained token has no such header, so its write access is read per repository
 * from `CHAT_REPOS` (`permissions.push`).
 */
export async function checkGitHubToken(config: Config, token: string, timeoutMs: number): Promise<Finding[]> {
  const base = config.GITHUB_API_URL;
  const user = await githubGet(base, '/user', `token ${token}`, timeoutMs);
  if (user.status === 401)
    return [
      problem(
        CHECK,
        'GITHUB_TOKEN was refused (401 Bad credentials)',
        'create a new token for the bot account and set GITHUB_TOKEN',
      ),
    ];
  if (user.status !== 200)
    return [
      problem(CHECK, `GET /user answered ${user.status}`, `check GITHUB_API_URL (${base}) and the token`),
    ];
  const login = String(user.body.login ?? '?');
  const scopes = user.headers.get('x-oauth-scopes');
  if (scopes !== null) {
    const list = scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!list.includes('repo') && !list.includes('public_repo'))
      return [
        problem(
          CHECK,
          `token of ${login} has scopes [${list.join(', ')}], without repo`,
          'give the classic token the repo scope (or public_repo for public repositories only), or use a fine-grained token with Contents, Issues and Pull requests: read and write',
        ),
      ];
    return [ok(CHECK, `token of ${login}, scopes ${list.join(', ')}`)];
  }
  const repos = [...new Set(config.CHAT_REPOS.values())];
  const out: Finding[] = [];
  for (const repo of repos) {
    const r = await githubGet(base, `/repos/${repo}`, `token ${token}`, timeoutMs);
    const push = (r.body.permissions as { push?: boolean } | undefined)?.push;
    if (r.status !== 200 || push !== true)
      out.push(
        problem(
          CHECK,
          r.status === 200
            ? `token of ${login} cannot push to ${repo}`
            : `token of ${login} cannot see ${repo} (${r.status})`,
          `grant the fine-grained token access to ${repo} with Contents, Issues and Pull requests: read and write`,
        ),
      );
  }
  if (!out.length)
    out.push(
      ok(CHECK, `fine-grained token of ${login}${repos.length ? `, can push to ${repos.join(', ')}` : ''}`),
    );
  return out;
}
