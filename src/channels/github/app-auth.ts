import { createAppAuth } from '@octokit/auth-app';
import type { Logger } from '../../logger.ts';
import { createGitHubClient } from './client.ts';

/** `@octokit/auth-app`'s strategy: App JWTs, and installation tokens it caches per scope. */
export type GitHubAppAuth = ReturnType<typeof createAppAuth>;

export interface AppAuthOptions {
  baseUrl: string;
  appId: string;
  /** The App's private key (PEM); a key pasted into `.env` on one line with `\n` escapes works too. */
  privateKey: string;
  log?: Logger | undefined;
}

/**
 * GitHub App authentication (issue 16): `@octokit/auth-app` signs the App JWTs and mints and
 * caches installation tokens, sending its requests through our GitHub client (`GITHUB_API_URL`,
 * time-outs, no in-process retry of the mint, which is a POST).
 */
export function githubAppAuth(o: AppAuthOptions): GitHubAppAuth {
  const client = createGitHubClient({ baseUrl: o.baseUrl, log: o.log });
  return createAppAuth({
    appId: o.appId,
    privateKey: o.privateKey,
    request: client.request,
    log: { warn: (msg: string) => o.log?.warn(msg) },
  });
}

/** A fresh App JWT (RS256, issued by the App id, valid under ten minutes) for App-level calls. */
export async function appJwt(appId: string, privateKey: string): Promise<string> {
  const auth = createAppAuth({ appId, privateKey });
  return (await auth({ type: 'app' })).token;
}
