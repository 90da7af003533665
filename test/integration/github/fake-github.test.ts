import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../../src/channels/github/client.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';

/** The fake speaks what executors will call, through the real Octokit client. */
describe('fake GitHub through the real client', () => {
  let gh: FakeGitHub;
  let client: GitHubClient;
  const where = { owner: 'acme', repo: 'tools' };
  beforeAll(async () => {
    gh = await startFakeGitHub({ token: 'ghp_fake' });
    client = createGitHubClient({ baseUrl: gh.url, auth: 'ghp_fake' });
  });
  afterAll(() => gh.close());

  it('answers 401 to a wrong token, and serves a repository with a settable file:// clone_url', async () => {
    const anon = createGitHubClient({ baseUrl: gh.url, auth: 'nope' });
    await expect(anon.rest.repos.get(where)).rejects.toMatchObject({ status: 401 });
    gh.setRepo('acme/tools', { clone_url: 'file:///tmp/acme-tools.git', default_branch: 'trunk' });
    const { data } = await client.rest.repos.get(where);
    expect(data).toMatchObject({
      full_name: 'acme/tools',
      clone_url: 'file:///tmp/acme-tools.git',
      default_branch: 'trunk',
    });
  });

  it('R-C6: a draft PR is created, found by head, marked ready over GraphQL, and closed', async () => {
    const { data: pr } = await client.rest.pulls.create({
      ...where,
      title: 'Fix',
      head: 'sy/t1',
      base: 'trunk',
      draft: true,
    });
    expect(pr).toMatchObject({ draft: true, state: 'open', head: { ref: 'sy/t1' } });
    const { data: found } = await client.rest.pulls.list({ ...where, head: 'acme:sy/t1' });
    expect(found.map((p) => p.number)).toEqual([pr.number]);
    await client.graphql(
      'mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }',
      { id: pr.node_id },
    );
    expect((await client.rest.pulls.get({ ...where, pull_number: pr.number })).data.draft).toBe(false);
    await client.rest.pulls.update({ ...where, pull_number: pr.number, state: 'closed' });
    expect((await client.rest.pulls.list({ ...where, head: 'acme:sy/t1' })).data).toEqual([]);
  });

  it('R-A5: reports repository permission per user; R-C7: lists review threads with their comments', async () => {
    gh.setPermission('acme/tools', 'ada', 'write');
    const perm = await client.rest.repos.getCollaboratorPermissionLevel({ ...where, username: 'ada' });
    expect(perm.data.permission).toBe('write');
    const pull = gh.addPull('acme/tools', { title: 'P', head: 'p' });
    const root = gh.addReviewComment('acme/tools', pull.number, {
      body: 'why?',
      user: { login: 'ada', type: 'User' },
    });
    await client.rest.pulls.createReplyForReviewComment({
      ...where,
      pull_number: pull.number,
      comment_id: root.id,
      body: 'because',
    });
    const res = await client.graphql<{
      repository: {
        pullRequest: { reviewThreads: { nodes: Array<{ id: string; comments: { nodes: unknown[] } }> } };
      };
    }>(
      'query($owner: String!, $repo: String!, $number: Int!) { repository(owner: $owner, name: $repo) { pullRequest(number: $number) { reviewThreads(first: 50) { nodes { id isResolved comments(first: 50) { nodes { databaseId body } } } } } } }',
      {
        ...where,
        number: pull.number,
      },
    );
    const threads = res.repository.pullRequest.reviewThreads.nodes;
    expect(threads).toHaveLength(1);
    expect(threads[0]?.id).toBe(root.threadId);
    expect(threads[0]?.comments.nodes).toHaveLength(2);
  });
});
