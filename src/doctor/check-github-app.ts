import { appJwt } from '../channels/github/app-auth.ts';
import { missingFromApp } from '../channels/github/app-needs.ts';
import type { Config } from '../config.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, ok, problem } from './finding.ts';
import { githubGet } from './github-get.ts';

const CHECK = 'github';

/**
 * App mode: the App JWT is accepted (`GET /app`), and the App holds the permissions and
 * subscribes to the events the bot needs — compared with `APP_NEEDS`, the list the panel's
 * manifest is built from (issue 16); each one missing is named.
 */
export async function checkGitHubApp(
  config: Config,
  app: { appId: string; key: string },
  timeoutMs: number,
  say: Say,
): Promise<Finding[]> {
  let jwt: string;
  try {
    jwt = await appJwt(app.appId, app.key);
  } catch (err) {
    const error = (err as Error).message;
    return [problem(CHECK, say('github.key-cannot-sign', { error }), say('github.key-cannot-sign.fix'))];
  }
  const got = await githubGet(config.GITHUB_API_URL, '/app', `Bearer ${jwt}`, timeoutMs);
  if (got.status !== 200) {
    const vars = { status: got.status, message: String(got.body.message ?? '') };
    return [problem(CHECK, say('github.app-refused', vars), say('github.app-refused.fix'))];
  }
  const slug = String(got.body.slug ?? app.appId);
  const missing = missingFromApp(got.body);
  const out: Finding[] = [];
  if (missing.permissions.length) {
    const vars = { slug, permissions: missing.permissions.join(', ') };
    out.push(
      problem(
        CHECK,
        say('github.app-lacks-permissions', vars),
        say('github.app-lacks-permissions.fix', vars),
      ),
    );
  }
  if (missing.events.length) {
    const vars = { slug, events: missing.events.join(', ') };
    out.push(problem(CHECK, say('github.app-lacks-events', vars), say('github.app-lacks-events.fix', vars)));
  }
  if (!out.length) out.push(ok(CHECK, say('github.app-ok', { slug })));
  return out;
}
