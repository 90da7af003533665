/**
 * The read side of the fake GitHub that executors use for sources (issue 15, R-H6), as GitHub's
 * REST docs describe it: list endpoints page with `page` and `per_page` (default 30, at most 100;
 * a larger value is capped, not refused) and say where the next page is in a `Link` header; a
 * PR's diff is `GET /pulls/:n` with `Accept: application/vnd.github.diff`; check runs of a ref are
 * `{ total_count, check_runs }`.
 */

export interface FakeFile {
  filename: string;
  status: 'added' | 'modified' | 'removed' | 'renamed';
  additions: number;
  deletions: number;
  patch?: string;
}

export interface FakeCheckRun {
  id: number;
  repo: string;
  head_sha: string;
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  app: { slug: string };
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** One page of `items` and its `Link` header, the way GitHub pages list endpoints. */
export function paged<T>(items: T[], q: URLSearchParams, path: string, base: string): Reply {
  const per = Math.min(100, Math.max(1, Number(q.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
  const slice = items.slice((page - 1) * per, page * per);
  const last = Math.max(1, Math.ceil(items.length / per));
  const link = (p: number, rel: string) => {
    const u = new URL(`${base}${path}`);
    for (const [k, v] of q) u.searchParams.set(k, v);
    u.searchParams.set('per_page', String(per));
    u.searchParams.set('page', String(p));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : []),
  ];
  return { status: 200, body: slice, ...(links.length ? { headers: { link: links.join(', ') } } : {}) };
}

/** A unified diff of a PR's files, as `application/vnd.github.diff` answers it. */
export function diffOf(files: FakeFile[]): string {
  return files
    .map(
      (f) =>
        `diff --git a/${f.filename} b/${f.filename}\n--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch ?? ''}\n`,
    )
    .join('');
}
