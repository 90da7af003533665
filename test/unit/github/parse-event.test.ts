import { describe, expect, it } from 'vitest';
import { buildCard } from '../../../src/cards/build-card.ts';
import { type CardDraft, TriggerCardSchema } from '../../../src/cards/card.ts';
import { parseGitHubEvent } from '../../../src/channels/github/parse-event.ts';
import { githubPayloads as P } from '../../kit/github-webhook.ts';

const pctx = { botLogin: 'switchyard-bot' };
const draftOf = (event: string, payload: unknown): CardDraft => {
  const out = parseGitHubEvent(event, 'd-1', payload, pctx);
  if (out.kind !== 'card') throw new Error(`expected a card, got ${JSON.stringify(out)}`);
  // Every draft must make a card the schema accepts (R-A3).
  TriggerCardSchema.parse(buildCard(out.draft).card);
  return out.draft;
};

describe('parseGitHubEvent (R-A2, R-A3)', () => {
  it('R-A3: a comment on a PR conversation is an issue_comment whose item ref is the PR', () => {
    const d = draftOf(
      'issue_comment',
      P.mentionComment({ isPullRequest: true, number: 12, body: 'ok, see acme/other#4' }),
    );
    expect(d.origin).toMatchObject({ isPullRequest: true, number: 12, commentType: 'issue' });
    expect(d.refs).toEqual([
      { type: 'pr', repo: 'acme/widgets', number: 12 },
      { type: 'issue', repo: 'acme/other', number: 4 },
    ]);
    expect(d.request).toBe(false);
  });

  it('R-B8: an edited comment that mentions the bot is a card but not a new request', () => {
    const d = draftOf('issue_comment', { ...P.mentionComment(), action: 'edited' });
    expect(d.action).toBe('edited');
    expect(d.request).toBe(false);
  });

  it('R-A5: the association is recorded only when the actor wrote the content', () => {
    const own = draftOf('issue_comment', P.mentionComment());
    expect(own.author.role).toBe('MEMBER');
    const payload = P.issueAssigned({ sender: 'ada' });
    expect(draftOf('issues', payload).author.role).toBeUndefined();
  });

  it('R-A2: assigning someone else than the bot is not a request', () => {
    expect(draftOf('issues', P.issueAssigned({ assignee: 'grace' })).request).toBe(false);
    expect(draftOf('issues', P.issueAssigned({ sender: 'switchyard-bot' })).request).toBe(false);
  });

  it('R-A2: check runs that are not completed, and unknown events, are ignored; a bad shape is invalid', () => {
    const running = { ...P.checkRunFailed(), action: 'created' };
    expect(parseGitHubEvent('check_run', 'd', running, pctx)).toEqual({
      kind: 'ignored',
      reason: 'check_run.created',
    });
    expect(parseGitHubEvent('star', 'd', {}, pctx).kind).toBe('ignored');
    const bad = parseGitHubEvent('pull_request', 'd', { action: 'opened', sender: { login: 'x' } }, pctx);
    expect(bad.kind).toBe('invalid');
  });

  it('R-A2: a check run on no PR belongs to its branch; a suite carries its conclusion', () => {
    const d = draftOf('check_run', P.checkRunFailed({ prs: [], branch: 'main' }));
    expect(d.origin).toEqual({ source: 'github', repo: 'acme/widgets', isPullRequest: false });
    expect(d.conversation).toBe('acme/widgets@main');
    const suite = {
      action: 'completed',
      check_suite: {
        id: 1,
        status: 'completed',
        conclusion: 'success',
        head_sha: 'a'.repeat(40),
        head_branch: 'x',
        pull_requests: [{ number: 5 }],
        app: { slug: 'ci' },
      },
      repository: { full_name: 'acme/widgets' },
      sender: { login: 'ci[bot]', type: 'Bot' },
    };
    expect(draftOf('check_suite', suite)).toMatchObject({
      kind: 'check',
      request: false,
      facts: { conclusion: 'success' },
      conversation: 'acme/widgets#5',
    });
  });

  it('R-B2, issue 14: a check attaches by branch only when GitHub shows its head in the base repository', () => {
    const branchRefs = (payload: unknown) =>
      draftOf('check_run', payload).refs.filter((r) => r.type === 'branch');
    const sameRepo = P.checkRunFailed({ prs: [12], branch: 'sy/T1-fix' });
    expect(branchRefs(sameRepo)).toEqual([{ type: 'branch', repo: 'acme/widgets', name: 'sy/T1-fix' }]);
    // A fork's branch named like a ticket's: its PR entry shows another head repository.
    const fork = P.checkRunFailed({ prs: [12], branch: 'sy/T1-fix', head: 'fork' });
    expect(branchRefs(fork)).toEqual([]);
    expect(draftOf('check_run', fork).refs).toContainEqual({ type: 'pr', repo: 'acme/widgets', number: 12 });
    // No PR entry (GitHub lists none for forks): the head repository is unknown, so no branch.
    expect(branchRefs(P.checkRunFailed({ prs: [], branch: 'sy/T1-fix' }))).toEqual([]);
  });

  it('R-A3: a closed, merged PR carries merged and state facts; a draft flag is kept', () => {
    const payload = P.prOpened();
    const merged = {
      ...payload,
      action: 'closed',
      pull_request: { ...payload.pull_request, state: 'closed', merged: true },
    };
    expect(draftOf('pull_request', merged).facts).toMatchObject({
      state: 'closed',
      merged: true,
      draft: false,
    });
  });
});
