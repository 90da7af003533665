import type { Config } from '../config.ts';
import { checkGitHubApp } from './check-github-app.ts';
import { checkGitHubToken } from './check-github-token.ts';
import { type Finding, off, problem } from './finding.ts';

/** GitHub credentials in the mode configured (App or token); off when the channel is. */
export async function checkGitHub(config: Config, timeoutMs: number): Promise<Finding[]> {
  if (!config.githubEnabled)
    return [off('github', 'off (no GITHUB_WEBHOOK_SECRET with GITHUB_TOKEN or GITHUB_APP_ID)')];
  try {
    // The same precedence as the product (`githubRepoAccess`): a token wins over an App.
    if (config.GITHUB_TOKEN) return await checkGitHubToken(config, config.GITHUB_TOKEN, timeoutMs);
    return await checkGitHubApp(
      config,
      config.GITHUB_APP_ID ?? '',
      config.GITHUB_PRIVATE_KEY ?? '',
      timeoutMs,
    );
  } catch (err) {
    return [
      problem(
        'github',
        `cannot reach ${config.GITHUB_API_URL}: ${(err as Error).message}`,
        'check GITHUB_API_URL and the network',
      ),
    ];
  }
}
