import { authorOf } from '../channels/github/author.ts';
import { type GitHubClient, splitRepo } from '../channels/github/client.ts';
import { capBlocks, renderMessage } from './source-text.ts';

const THREADS = `query($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) { pullRequest(number: $number) {
    reviewThreads(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes { id isResolved path line comments(first: 50) { nodes {
        databaseId body createdAt authorAssociation author { login __typename }
      } } }
    }
  } }
}`;

interface Comment {
  databaseId: number;
  body: string;
  createdAt?: string;
  authorAssociation?: string;
  author: { login: string; __typename?: string } | null;
}
interface Thread {
  id: string;
  isResolved: boolean;
  path?: string;
  line?: number | null;
  comments: { nodes: Comment[] };
}
interface Answer {
  repository: {
    pullRequest: {
      reviewThreads: { pageInfo?: { hasNextPage: boolean; endCursor: string | null }; nodes: Thread[] };
    } | null;
  } | null;
}

/**
 * One page of a PR's review threads (R-H6), through GraphQL as GitHub offers them (`first` ≤ 100,
 * a cursor to go on), each comment with its author and standing.
 */
export async function readReviewThreads(
  client: GitHubClient,
  bot: string,
  a: { repo: string; number: number; perPage?: number | undefined; cursor?: string | undefined },
): Promise<string> {
  const { owner, repo: name } = splitRepo(a.repo);
  const first = Math.min(100, Math.max(1, a.perPage ?? 20));
  const res = await client.graphql<Answer>(THREADS, {
    owner,
    name,
    number: a.number,
    first,
    after: a.cursor ?? null,
  });
  const threads = res.repository?.pullRequest?.reviewThreads;
  if (!threads) return `No pull request ${a.repo}#${a.number}.`;
  const blocks = threads.nodes.map((t) =>
    [
      `thread ${t.id} (${t.isResolved ? 'resolved' : 'open'}${t.path ? `, ${t.path}${t.line ? `:${t.line}` : ''}` : ''}):`,
      ...t.comments.nodes.map((c) =>
        renderMessage({
          source: 'github',
          kind: 'review_comment',
          id: `review_comment:${c.databaseId}`,
          author: authorOf(
            { login: c.author?.login ?? 'ghost', ...(c.author?.__typename === 'Bot' ? { type: 'Bot' } : {}) },
            bot,
            c.authorAssociation,
          ),
          at: c.createdAt,
          text: c.body,
        }),
      ),
    ].join('\n'),
  );
  const info = threads.pageInfo;
  const more =
    info?.hasNextPage && info.endCursor ? `[more: call again with cursor=${info.endCursor}]` : '[end]';
  return capBlocks(`Review threads of PR ${a.repo}#${a.number}:`, blocks, more);
}
