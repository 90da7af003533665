import { appJwt } from '../channels/github/app-auth.ts';
import { missingFromApp } from '../channels/github/app-needs.ts';
import type { Config } from '../config.ts';
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
  appId: string,
  key: string,
  timeoutMs: number,
): Promise<Finding[]> {
  let jwt: string;
  try {
    jwt = await appJwt(appId, key);
  } catch (err) {
    return [
      problem(
        CHECK,
        `GITHUB_PRIVATE_KEY cannot sign: ${(err as Error).message}`,
        "put the App's private key (the PEM file's text, in double quotes over several lines, or on one line with \\n) into GITHUB_PRIVATE_KEY",
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
  const missing = missingFromApp(app.body);
  const out: Finding[] = [];
  if (missing.permissions.length)
    out.push(
      problem(
        CHECK,
        `App ${slug} lacks permissions ${missing.permissions.join(', ')}`,
        `grant ${missing.permissions.join(', ')} in the App's "Permissions & events" settings, then accept the new permissions on each installation`,
      ),
    );
  if (missing.events.length)
    out.push(
      problem(
        CHECK,
        `App ${slug} does not subscribe to ${missing.events.join(', ')}`,
        `subscribe the App to ${missing.events.join(', ')} in its "Permissions & events" settings`,
      ),
    );
  if (!out.length) out.push(ok(CHECK, `App ${slug}: permissions and events in place`));
  return out;
}
