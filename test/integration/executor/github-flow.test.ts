import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { getTicket, listTickets } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

describe('executor delivery from a GitHub issue comment (issue 4)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C6: an issue comment mentioning the bot gets 👀, one acknowledgement, a draft PR in that repository, ready only after verification', async () => {
    const issue = w.gh.addIssue('acme/web', {
      title: 'Login redirect loops',
      user: { login: 'ada', type: 'User' },
    });
    const flow = executorFlow(w.llm, [
      (_r, card) =>
        toolCalls([
          'reply',
          { to: card, text: 'I will fix the redirect loop in src/login.ts and open a PR here.' },
        ]),
      () =>
        toolCalls(
          ['read_file', { path: 'src/login.ts' }],
          ['write_file', { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/";\n' }],
        ),
      () => toolCalls(['commit_and_push', { message: `Fix the login redirect (#${issue.number})` }]),
      () => toolCalls(['open_pr', { title: 'Fix the login redirect', body: `Fixes #${issue.number}.` }]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['record_verification', { command: 'grep -q "||" src/login.ts' }]),
      // Issue 48: the first call that passes the checks shows the diff; the second marks it ready.
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'PR ready.' }]),
    ]);
    const payload = githubPayloads.mentionComment({
      repo: 'acme/web',
      number: issue.number,
      commentId: 9001,
      body: `@${w.gh.botLogin} please fix the login redirect loop`,
    });
    const res = await sendGitHubEvent(w.app.url, 'issue_comment', payload, {
      secret: SECRETS.GITHUB_WEBHOOK_SECRET,
    });
    expect(res.status).toBe(202);
    await flow.done(60_000);
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[3]).toContain('opened draft PR acme/web#2');
    expect(r[4]).toMatch(/refused: no passing verification at HEAD/);
    expect(r[6]).toMatch(/^Error: Not yet: look at what you deliver before marking the PR ready/);
    expect(r[7]).toContain('acme/web#2 is ready for review');
    expect(r[8]).toContain('recorded done');
    expect(w.gh.reactions.filter((x) => x.targetId === 9001 && x.content === 'eyes')).toHaveLength(1);
    const acks = await waitFor(() => {
      // The ticket's status comment (issue 8) lives on the issue too; the acknowledgement is one reply.
      const found = w.gh.comments.filter((c) => c.number === issue.number && c.body.startsWith('I will fix'));
      return found.length ? found : undefined;
    }, 'the acknowledgement');
    expect(acks).toHaveLength(1);
    // The one ticket of this test (its own key prefix, issue 20): the comment opened it.
    const tickets = await listTickets(w.app.ctx);
    expect(tickets).toHaveLength(1);
    const ticket = tickets[0]?.id as string;
    expect((await getTicket(w.app.ctx, ticket))?.repo).toBe('acme/web');
    expect(w.gh.pulls.find((p) => p.number === 2)).toMatchObject({
      draft: false,
      user: { login: w.gh.botLogin },
    });
    expect(w.repo.git('log', '-1', '--format=%an %s', `sy/${ticket}-login-redirect-loops`)).toBe(
      `${w.gh.botLogin} Fix the login redirect (#1)`,
    );
    // Issue 14 "lifecycle": the turn that closed the ticket deleted its checkout; its data expires.
    const { ctx } = w.app;
    // The checkout goes first and its home right after: wait for both (the test polls in between).
    const paths = workspacePaths(ctx, ticket);
    await waitFor(() => !existsSync(paths.dir) && !existsSync(paths.home), 'the checkout deleted', 15_000);
    expect(await ctx.redis.pttl(ctx.keys.ticket(ticket))).toBeGreaterThan(0);
    expect(await ctx.redis.pttl(ctx.keys.transcript(`exec-${ticket}`))).toBeGreaterThan(0);
  }, 90_000);
});
