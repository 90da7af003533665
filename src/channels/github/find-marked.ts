import { type GitHubClient, splitRepo } from './client.ts';

/** Only comments touched this recently are searched: outbox retries end within minutes. */
const LOOKBACK_MS = 24 * 3600 * 1000;

type Listed = { id: number; body?: string | null | undefined };

async function firstWith(
  pages: AsyncIterable<{ data: Listed[] }>,
  marker: string,
): Promise<number | undefined> {
  for await (const page of pages) {
    const hit = page.data.find((c) => c.body?.includes(marker));
    if (hit) return hit.id;
  }
  return undefined;
}

/** The id of an issue/PR comment carrying `marker`, if an earlier attempt already posted it. */
export function findMarkedIssueComment(
  client: GitHubClient,
  repo: string,
  number: number,
  marker: string,
  now = Date.now(),
): Promise<number | undefined> {
  const since = new Date(now - LOOKBACK_MS).toISOString();
  const pages = client.paginate.iterator(client.rest.issues.listComments, {
    ...splitRepo(repo),
    issue_number: number,
    since,
    per_page: 100,
  });
  return firstWith(pages, marker);
}

/** The id of a review comment on PR `number` carrying `marker`, if already posted. */
export function findMarkedReviewComment(
  client: GitHubClient,
  repo: string,
  number: number,
  marker: string,
  now = Date.now(),
): Promise<number | undefined> {
  const since = new Date(now - LOOKBACK_MS).toISOString();
  const pages = client.paginate.iterator(client.rest.pulls.listReviewComments, {
    ...splitRepo(repo),
    pull_number: number,
    since,
    per_page: 100,
  });
  return firstWith(pages, marker);
}
