import type { Config } from '../config.ts';
import { checkGitHubApp } from './check-github-app.ts';
import { checkGitHubToken } from './check-github-token.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, off, problem } from './finding.ts';

/** GitHub credentials in the mode configured (App or token); off when the channel is. */
export async function checkGitHub(config: Config, timeoutMs: number, say: Say): Promise<Finding[]> {
  if (!config.githubEnabled) return [off('github', say('github.off'))];
  try {
    // The same precedence as the product (`githubRepoAccess`): a token wins over an App.
    if (config.GITHUB_TOKEN) return await checkGitHubToken(config, config.GITHUB_TOKEN, timeoutMs, say);
    return await checkGitHubApp(
      config,
      { appId: config.GITHUB_APP_ID ?? '', key: config.GITHUB_PRIVATE_KEY ?? '' },
      timeoutMs,
      say,
    );
  } catch (err) {
    const vars = { base: config.GITHUB_API_URL, error: (err as Error).message };
    return [problem('github', say('github.unreachable', vars), say('github.unreachable.fix'))];
  }
}
