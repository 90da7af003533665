import { startTestApp, type TestApp } from './app.ts';
import { type FakeGitHub, startFakeGitHub } from './fake-github.ts';

/** The product in token mode against a fresh fake GitHub, signing its webhooks with `secret`. */
export interface GitHubTestWorld {
  gh: FakeGitHub;
  app: TestApp;
}

export async function startGitHubTestWorld(
  secret: string,
  env: Record<string, string> = {},
): Promise<GitHubTestWorld> {
  const gh = await startFakeGitHub({ botLogin: 'switchyard-bot', token: 'ghp_test' });
  const app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: secret,
    GITHUB_TOKEN: 'ghp_test',
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: 'switchyard-bot',
    ...env,
  });
  return { gh, app };
}

export async function closeGitHubTestWorld(w: Partial<GitHubTestWorld>): Promise<void> {
  await w.app?.close();
  await w.gh?.close();
}
