import { appJwt } from '../channels/github/app-jwt.ts';
import type { Config } from '../config.ts';
import { type Finding, ok, problem } from './finding.ts';
import { githubGet } from './github-get.ts';

const CHECK = 'github';

/** What the bot does with an installation token: push branches, open and update PRs, comment and react, read checks. */
export const APP_PERMISSIONS: Record<string, 'read' | 'write'> = {
  contents: 'write',
  pull_requests: 'write',
  issues: 'write',
  metadata: 'read',
  checks: 'read',
};

/** R-A2: the events the bot turns into cards. */
export const APP_EVENTS = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
  'pull_request',
  'issues',
  'check_run',
  'check_suite',
];

const LEVEL: Record<string, number> = { read: 1, write: 2, admin: 3 };

/** App mode: the App JWT is accepted (`GET /app`), and the App holds the permissions and events the bot needs. */
export async function checkGitHubApp(
  config: Config,
  appId: string,
  key: string,
  timeoutMs: number,
): Promise<Finding[]> {
  let jwt: string;
  try {
    jwt = appJwt(appId, key);
  } catch (err) {
    return [
      problem(
        CHECK,
        `GITHUB_PRIVATE_KEY cannot sign: ${(err as Error).message}`,
        "paste the App's private key (PEM, newlines as \\n) into GITHUB_PRIVATE_KEY",
      ),
    ];
  }
  const app = await githubGet(config.GITHUB_API_URL, '/app', `Bearer ${jwt}`, timeoutMs);
  if (app.status !== 200)
    return [
      problem(
        CHECK,
        `GET /app answered ${app.status}: ${String(app.body.message ?? '')}`,
        "check GITHUB_APP_ID and GITHUB_PRIVATE_KEY against the App's settings page (and the machine's clock: the JWT is time-bound)",
      ),
    ];
  const slug = String(app.body.slug ?? appId);
  const has = (app.body.permissions ?? {}) as Record<string, string>;
  const lacking = Object.entries(APP_PERMISSIONS)
    .filter(([name, level]) => (LEVEL[has[name] ?? ''] ?? 0) < (LEVEL[level] ?? 0))
    .map(([name, level]) => `${name}: ${level}`);
  const events = new Set((app.body.events ?? []) as string[]);
  const missing = APP_EVENTS.filter((e) => !events.has(e));
  const out: Finding[] = [];
  if (lacking.length)
    out.push(
      problem(
        CHECK,
        `App ${slug} lacks permissions ${lacking.join(', ')}`,
        `grant ${lacking.join(', ')} in the App's "Permissions & events" settings, then accept the new permissions on each installation`,
      ),
    );
  if (missing.length)
    out.push(
      problem(
        CHECK,
        `App ${slug} does not subscribe to ${missing.join(', ')}`,
        `subscribe the App to ${missing.join(', ')} in its "Permissions & events" settings`,
      ),
    );
  if (!out.length) out.push(ok(CHECK, `App ${slug}: permissions and events in place`));
  return out;
}
