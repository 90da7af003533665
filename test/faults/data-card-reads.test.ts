import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataLabels } from '../../src/tickets/attach.ts';
import { ticketCardIds } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../kit/fake-feishu.ts';
import { type RecordedRequest, toolCalls } from '../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent } from '../kit/feishu-webhook.ts';
import { githubPayloads, sendGitHubEvent } from '../kit/github-webhook.ts';
import { ackAll, inputOf, lastToolResults, openAll, scriptedModel } from '../kit/scripted-model.ts';
import { type GitHubWorld, SECRET, startGitHubWorld } from './github-world.ts';

const ENCRYPT_KEY = 'data-card-reads-key-0123';
const WAKE = 'please check the linked reports';

/**
 * Issue 45: a card attached as data — a cross-reference from another repository or a message from
 * another Feishu chat — grants no read of its repository or chat. `sourceScope` added the place of
 * every attached card, so a writer of private `acme/secret` saying "same root cause as
 * acme/widgets#7" opened all of `acme/secret` to `read_github` for the ticket's steerers.
 */
describe('issue 45: a data card grants no read', () => {
  let w: GitHubWorld;
  let feishu: FakeFeishu;
  let ticket = '';
  /** The reads the executor makes when ada wakes it, and their results. */
  let reads: [string, unknown][] = [];
  let results: string[] | undefined;

  beforeEach(async () => {
    feishu = await startFakeFeishu();
    w = await startGitHubWorld({
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_DOMAIN: feishu.url,
      FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
      FEISHU_VERIFICATION_TOKEN: 'verify-token',
    });
    reads = [];
    results = undefined;
    const executor = (req: RecordedRequest) =>
      inputOf(req).includes(WAKE) ? toolCalls(...reads) : ackAll(req);
    const onResults = (req: RecordedRequest, role: 'main' | 'executor') => {
      if (role === 'executor' && !results && inputOf(req).includes(WAKE)) results = lastToolResults(req);
      return undefined;
    };
    w.llm.respond(scriptedModel({ main: openAll, executor, onResults }));
    ticket = await w.open('ada', '@switchyard-bot please fix the login redirect');
  });
  afterEach(async () => {
    await w?.close();
    await feishu?.close();
  });

  /** ada wakes the ticket; resolves to the results of `reads`. */
  async function wakeAndRead(): Promise<string[]> {
    await w.comment('ada', `@switchyard-bot ${WAKE}`);
    return waitFor(() => results, 'the results of the executor’s reads', 20_000);
  }

  it('issue 45: a cross-reference from private acme/secret attaches as data; read_github of another issue there is refused, the card’s own issue stays readable', async () => {
    w.gh.setRepo('acme/secret');
    w.gh.addIssue('acme/secret', { title: 'Payroll', body: 'SALARY TABLE: ada 1,000,000' });
    const own = w.gh.addIssue('acme/secret', { title: 'Login loops here too', body: 'seen on staging' });
    w.gh.setPermission('acme/secret', 'sam', 'write');
    const payload = githubPayloads.mentionComment({
      repo: 'acme/secret',
      number: own.number,
      author: 'sam',
      body: 'same root cause as acme/widgets#7',
      commentId: 91_001,
    });
    const res = await sendGitHubEvent(w.app.url, 'issue_comment', payload, { secret: SECRET });
    const card = ((await res.json()) as { card: string }).card;
    expect(await w.routed(card)).toEqual({ kind: 'attached', tickets: [ticket] });
    expect((await dataLabels(w.app.ctx, ticket, [card])).has(card)).toBe(true);

    reads = [
      ['read_github', { what: 'issue', repo: 'acme/secret', number: 1 }],
      ['read_github', { what: 'issue', repo: 'acme/secret', number: own.number }],
      ['read_github', { what: 'comments', repo: 'acme/secret', number: own.number }],
    ];
    const [other, item, thread] = await wakeAndRead();
    expect(other).toMatch(/refused: acme\/secret is not a repository of this ticket \(R-H6\)/);
    expect(other).not.toContain('SALARY');
    expect(item).toContain('seen on staging');
    expect(thread).toMatch(/refused: acme\/secret is not a repository of this ticket/);
    const secretCalls = w.gh.calls.filter((c) => c.path.startsWith('/repos/acme/secret/issues'));
    expect(secretCalls.map((c) => c.path)).toEqual([`/repos/acme/secret/issues/${own.number}`]);
  });

  it('issue 45: a message from another Feishu chat attaches as data; read_chat of that chat’s history is refused, the card’s own message stays readable', async () => {
    const earlier = feishu.seedMessage({
      chatId: 'oc_finance',
      text: 'the payroll export is in the usual folder',
      senderOpenId: 'ou_carol',
      createTime: Date.now() - 60_000,
    });
    const messageId = 'om_data_card_45';
    const text = 'same root cause as acme/widgets#7';
    feishu.seedMessage({ chatId: 'oc_finance', messageId, text, senderOpenId: 'ou_bob' });
    const before = new Set(await ticketCardIds(w.app.ctx, ticket));
    const event = groupMention(text, feishu.bot.openId, {
      chatId: 'oc_finance',
      messageId,
      senderOpenId: 'ou_bob',
    });
    const res = await sendFeishuEvent(`${w.app.url}/webhooks/feishu`, event, { encryptKey: ENCRYPT_KEY });
    expect(res.status).toBe(200);
    const card = await waitFor(
      async () => (await ticketCardIds(w.app.ctx, ticket)).find((id) => !before.has(id)),
      'the Feishu card attached to the ticket',
    );
    expect((await dataLabels(w.app.ctx, ticket, [card])).has(card)).toBe(true);

    reads = [
      ['read_chat', { what: 'message', id: earlier.messageId }],
      ['read_chat', { what: 'around', card }],
      ['read_chat', { what: 'message', id: messageId }],
    ];
    const [other, around, item] = await wakeAndRead();
    expect(other).toMatch(/refused: .* is not in a chat of this ticket \(R-H6\)/);
    expect(around).toMatch(/refused: oc_finance is not in a chat of this ticket \(R-H6\)/);
    for (const answer of [other, around]) expect(answer).not.toContain('payroll');
    expect(item).toContain(text);
  });
});
