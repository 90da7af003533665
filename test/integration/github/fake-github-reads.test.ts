import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';

/** The fake's list endpoints page like GitHub's REST API; its GraphQL keeps the `first` limit (issue 15). */
describe('fake GitHub reads', () => {
  let gh: FakeGitHub;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    const issue = gh.addIssue('acme/web', { title: 'many comments' });
    for (let i = 0; i < 130; i++) gh.addComment('acme/web', issue.number, { body: `c${i}` });
  });
  afterAll(async () => {
    await gh.close();
  });

  it('per_page is capped at 100 (not refused), the default is 30, and Link names the next page', async () => {
    const big = await fetch(`${gh.url}/repos/acme/web/issues/1/comments?per_page=150`);
    expect(((await big.json()) as unknown[]).length).toBe(100);
    expect(big.headers.get('link')).toMatch(/[?&]page=2[^>]*>; rel="next"/);
    const dflt = await fetch(`${gh.url}/repos/acme/web/issues/1/comments`);
    expect(((await dflt.json()) as unknown[]).length).toBe(30);
    const last = await fetch(`${gh.url}/repos/acme/web/issues/1/comments?per_page=100&page=2`);
    expect(((await last.json()) as unknown[]).length).toBe(30);
    expect(last.headers.get('link')).not.toMatch(/rel="next"/);
  });

  it('a reviewThreads query asking for more than 100 records fails like GitHub’s', async () => {
    const res = await fetch(`${gh.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 101) { nodes { id } } } } }',
        variables: { owner: 'acme', name: 'web', number: 1 },
      }),
    });
    const body = (await res.json()) as { data: unknown; errors?: { type: string }[] };
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.type).toBe('EXCESSIVE_PAGINATION');
  });
});
