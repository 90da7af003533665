import { withTimeout } from './with-timeout.ts';

export interface GitHubAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** One REST GET against `GITHUB_API_URL`. */
export async function githubGet(
  base: string,
  path: string,
  auth: string,
  timeoutMs: number,
): Promise<GitHubAnswer> {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  const res = await withTimeout(
    fetch(url, {
      headers: {
        authorization: auth,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'switchyard-doctor',
      },
    }),
    timeoutMs,
    url,
  );
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, headers: res.headers, body };
}
