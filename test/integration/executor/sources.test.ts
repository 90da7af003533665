import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { inputOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

const ENCRYPT_KEY = 'sources-encrypt-key-0123';
describe('R-H6: executors read the original sources of their cards', () => {
  let w: World;
  let feishu: FakeFeishu;
  beforeEach(async () => {
    feishu = await startFakeFeishu();
    w = await startWorld({
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_DOMAIN: feishu.url,
      FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
      FEISHU_VERIFICATION_TOKEN: 'verify-token',
    });
  });
  afterEach(async () => {
    await w.close();
    await feishu.close();
  });

  it('R-H6: "@bot fix this" replying to a bug report — the first request names the parent, and read_chat returns it, the chat around it, and refuses another chat', async () => {
    const report = 'Export crashes when the CSV has an empty header row (since v2.3)';
    const earlier = feishu.seedMessage({
      chatId: 'oc_bugs',
      text: 'Anyone else seeing the export issue?',
      senderOpenId: 'ou_carol',
      createTime: Date.now() - 120_000,
    });
    const parent = feishu.seedMessage({
      chatId: 'oc_bugs',
      text: `${report}\nStack trace: TypeError at csv.ts:12`,
      senderOpenId: 'ou_bob',
      createTime: Date.now() - 60_000,
    });
    const secret = feishu.seedMessage({
      chatId: 'oc_private',
      text: 'the launch code is 0000',
      senderOpenId: 'ou_eve',
    });
    let first = '';
    const flow = executorFlow(w.llm, [
      (req, card) => {
        first = inputOf(req);
        return toolCalls(
          ['read_chat', { what: 'message', id: parent.messageId }],
          ['read_chat', { what: 'around', card }],
        );
      },
      () => toolCalls(['read_chat', { what: 'message', id: secret.messageId }]),
    ]);
    const event = groupMention('fix this', feishu.bot.openId, {
      chatId: 'oc_bugs',
      messageId: 'om_fix_this',
      parentId: parent.messageId,
      rootId: parent.messageId,
    });
    const res = await sendFeishuEvent(`${w.app.url}/webhooks/feishu`, event, { encryptKey: ENCRYPT_KEY });
    expect(res.status).toBe(200);
    await flow.done();
    // The card carries its parent's author and first line (cheap context), before any read.
    expect(first).toContain(`in reply to ou_bob, person (${parent.messageId}): ${report}`);
    const [message, around] = flow.results[0] ?? [];
    expect(message).toContain('Stack trace: TypeError at csv.ts:12');
    expect(message).toMatch(/author: ou_bob, person/);
    expect(around).toContain(earlier.messageId);
    expect(around).toContain('Anyone else seeing the export issue?');
    expect(around).toMatch(/author: ou_carol, person/);
    const refused = flow.results[1]?.[0] ?? '';
    expect(refused).toMatch(/refused: .* is not in a chat of this ticket \(R-H6\)/);
    expect(refused).not.toContain('launch code');
  });

  it('R-H6: "@bot please handle this" on an issue — its card carries the body’s opening; read_github returns the body and the earlier comments; another repository is refused', async () => {
    const details =
      'Saving a draft with an emoji in the title drops the draft. Repro: open /drafts, type 🎉, save.';
    const issue = w.gh.addIssue('acme/web', {
      title: 'Drafts vanish',
      body: details,
      user: { login: 'grace', type: 'User' },
    });
    w.gh.addComment('acme/web', issue.number, {
      body: 'Also happens with accented letters.',
      user: { login: 'linus', type: 'User' },
      association: 'MEMBER',
    });
    w.gh.addComment('acme/web', issue.number, {
      body: 'Coverage report: 81%',
      user: { login: 'codecov[bot]', type: 'Bot' },
    });
    w.gh.setRepo('acme/secret');
    w.gh.addIssue('acme/secret', { title: 'private', body: 'salary table' });
    let first = '';
    const flow = executorFlow(w.llm, [
      (req) => {
        first = inputOf(req);
        return toolCalls(
          ['read_github', { what: 'issue' }],
          ['read_github', { what: 'comments', per_page: 1 }],
          ['read_github', { what: 'comments', per_page: 1, page: 2 }],
        );
      },
      () => toolCalls(['read_github', { what: 'issue', repo: 'acme/secret', number: 1 }]),
    ]);
    const payload = githubPayloads.mentionComment({
      repo: 'acme/web',
      number: issue.number,
      commentId: 7101,
      body: `@${w.gh.botLogin} please handle this`,
      issueBody: details,
    });
    const res = await sendGitHubEvent(w.app.url, 'issue_comment', payload, {
      secret: SECRETS.GITHUB_WEBHOOK_SECRET,
    });
    expect(res.status).toBe(202);
    await flow.done();
    expect(first).toContain('opened by grace (MEMBER):');
    expect(first).toContain(details);
    const [body, page1, page2] = flow.results[0] ?? [];
    expect(body).toContain(details);
    expect(body).toMatch(/author: grace, person/);
    expect(page1).toContain('Also happens with accented letters.');
    expect(page1).toMatch(/author: linus, person, MEMBER/);
    expect(page1).toContain('[more: call again with page=2 per_page=1]');
    expect(page2).toContain('Coverage report: 81%');
    expect(page2).toMatch(/author: codecov\[bot\], bot/);
    expect(flow.results[1]?.[0]).toMatch(/refused: acme\/secret is not a repository of this ticket \(R-H6\)/);
    expect(w.gh.calls.filter((c) => c.path.startsWith('/repos/acme/secret/issues'))).toHaveLength(0);
  });

  it('R-H6: a truncated 20,000-character card is read whole with read_card; a card of no ticket of ours is refused', async () => {
    const issue = w.gh.addIssue('acme/web', { title: 'Long log', user: { login: 'grace', type: 'User' } });
    const lines = Array.from(
      { length: 400 },
      (_, i) => `line ${String(i).padStart(3, '0')}: ${'x'.repeat(40)}`,
    );
    const long = `@${w.gh.botLogin} please look at this log\n${lines.join('\n')}`;
    expect(long.length).toBeGreaterThan(20_000);
    // A stored card this test made that no ticket holds (routing leaves a bot's card alone): it
    // used to borrow the first test's card, and read an empty id when run alone (issue 20).
    const otherCard = await send(w.app.ctx, {
      ...localMessage('a card of no ticket of ours'),
      author: { id: 'seed-bot', type: 'bot' },
    });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['read_card', { card }]),
      (req) => {
        const offset = /offset=(\d+)/.exec(inputOf(req) + JSON.stringify(req.messages.at(-1)))?.[1];
        return toolCalls([
          'read_card',
          { card: /Card (\S+),/.exec(String(req.messages.at(-1)?.content))?.[1], offset: Number(offset) },
        ]);
      },
      () => toolCalls(['read_card', { card: otherCard }]),
    ]);
    const payload = githubPayloads.mentionComment({
      repo: 'acme/web',
      number: issue.number,
      commentId: 7202,
      body: long,
    });
    await sendGitHubEvent(w.app.url, 'issue_comment', payload, { secret: SECRETS.GITHUB_WEBHOOK_SECRET });
    await flow.done();
    const pages = [flow.results[0]?.[0] ?? '', flow.results[1]?.[0] ?? ''];
    expect(pages[0]).toMatch(/\[more: call read_card again with offset=16000\]/);
    expect(pages[1]).toContain('[end of card]');
    const text = pages
      .map((p) => /<card-text id="[^"]+">\n([\s\S]*)\n<\/card-text>/.exec(p)?.[1] ?? '')
      .join('');
    expect(text).toBe(long);
    expect(flow.results[2]?.[0]).toMatch(/refused: .* is not a card of this ticket \(R-H6\)/);
  });
  it('R-H6: on a PR, read_github returns its files, its diff in pages, its review threads with authors, and check-run output', async () => {
    const pull = w.gh.addPull('acme/web', {
      title: 'Speed up login',
      head: 'speed-login',
      user: { login: 'grace', type: 'User' },
    });
    pull.files.push(
      {
        filename: 'src/login.ts',
        status: 'modified',
        additions: 2,
        deletions: 1,
        patch: '@@ -1 +1,2 @@\n-old\n+new\n+more',
      },
      {
        filename: 'docs/login.md',
        status: 'added',
        additions: 1,
        deletions: 0,
        patch: '@@ -0,0 +1 @@\n+docs',
      },
    );
    const root = w.gh.addReviewComment('acme/web', pull.number, {
      body: 'This drops the redirect target.',
      user: { login: 'linus', type: 'User' },
      path: 'src/login.ts',
    });
    w.gh.addReviewComment('acme/web', pull.number, {
      body: 'Agreed, keep it.',
      user: { login: 'grace', type: 'User' },
      in_reply_to_id: root.id,
    });
    w.gh.addCheckRun('acme/web', {
      name: 'unit tests',
      conclusion: 'failure',
      output: { title: '1 failed', summary: 'login.test.ts: expected /home', text: null },
    });
    const flow = executorFlow(w.llm, [
      () =>
        toolCalls(
          ['read_github', { what: 'pr_files', per_page: 1 }],
          ['read_github', { what: 'pr_diff' }],
          ['read_github', { what: 'review_threads' }],
          ['read_github', { what: 'checks' }],
        ),
    ]);
    const payload = githubPayloads.mentionComment({
      repo: 'acme/web',
      number: pull.number,
      commentId: 7303,
      isPullRequest: true,
      body: `@${w.gh.botLogin} please look at the review`,
    });
    await sendGitHubEvent(w.app.url, 'issue_comment', payload, { secret: SECRETS.GITHUB_WEBHOOK_SECRET });
    await flow.done();
    const [files, diff, threads, checks] = flow.results[0] ?? [];
    expect(files).toContain('modified src/login.ts (+2 -1)');
    expect(files).not.toContain('docs/login.md');
    expect(files).toContain('[more: call again with page=2 per_page=1]');
    expect(diff).toContain('diff --git a/src/login.ts b/src/login.ts');
    expect(diff).toContain('+docs');
    expect(diff).toContain('[end]');
    expect(threads).toContain(`thread PRRT_${root.id} (open, src/login.ts)`);
    expect(threads).toMatch(
      /author: linus, person[\s\S]*This drops the redirect target\.[\s\S]*author: grace, person[\s\S]*Agreed, keep it\./,
    );
    expect(checks).toMatch(/facts: name=unit tests, status=completed, conclusion=failure/);
    expect(checks).toContain('login.test.ts: expected /home');
    expect(checks).toMatch(/author: ci, bot/);
  });
});
