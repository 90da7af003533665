import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Author, CardDraft, TriggerCard } from '../../../src/cards/card.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
import { loadConfig } from '../../../src/config.ts';
import { chooseRepo, mayWorkIn } from '../../../src/executor/workspace/repo-choice.ts';
import { attachCard } from '../../../src/tickets/attach.ts';
import type { Ticket } from '../../../src/tickets/ticket.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { localMessage, send } from '../routing/helpers.ts';

let seq = 0;
const ALICE: Author = { id: 'ou_alice', type: 'person' };

/** A Feishu group message as the edge would store it. */
function feishuDraft(text: string, chat: string, author: Author = ALICE): CardDraft {
  const id = `om_standing_${process.pid}_${++seq}`;
  return {
    source: 'feishu',
    kind: 'message',
    eventId: id,
    author,
    origin: { source: 'feishu', chatId: chat, chatType: 'group', messageId: id },
    conversation: chat,
    request: false,
    refs: [],
    text,
  };
}

/** A GitHub issue comment by `login` (a writer there) on `repo#number`. */
function githubDraft(text: string, repo: string, login: string): CardDraft {
  const id = `gh_standing_${process.pid}_${++seq}`;
  return {
    source: 'github',
    kind: 'message',
    eventId: id,
    author: { id: login, type: 'person', role: 'MEMBER', permission: 'write' },
    origin: { source: 'github', repo, number: 7, isPullRequest: false, commentId: seq, commentType: 'issue' },
    conversation: `${repo}#7`,
    request: false,
    refs: [],
    text,
  };
}

/** Issue 31: which repository a ticket may work in, decided in code against its own chat or repository. */
describe('issue 31: a ticket’s repository comes from its own place and its steerers only', () => {
  let app: TestApp;
  let gh: FakeGitHub;
  beforeEach(async () => {
    gh = await startFakeGitHub({ token: 'ghp_standing' });
    app = await startTestApp(
      {
        GITHUB_API_URL: gh.url,
        GITHUB_TOKEN: 'ghp_standing',
        ALLOWED_USERS: 'feishu:ou_alice',
        CHAT_REPOS: 'oc_team=acme/web,oc_team=acme/api',
      },
      { workers: false },
    );
  });
  afterEach(async () => {
    await app.close();
    await gh.close();
  });

  const stored = async (draft: CardDraft): Promise<TriggerCard> => {
    const card = await loadCard(app.ctx, await send(app.ctx, draft));
    if (!card) throw new Error('the card was not stored');
    return card;
  };
  const open = async (draft: CardDraft): Promise<Ticket> =>
    createTicket(app.ctx, await stored(draft), { why: 'test' });
  const attach = async (ticket: Ticket, draft: CardDraft, dataLabel?: string) =>
    attachCard(app.ctx, ticket.id, await stored(draft), 'test', dataLabel ? { dataLabel } : {});

  it('issue 31: CHAT_REPOS binds a chat listed twice to both repositories, the first its default; a single binding reads as before', () => {
    const config = loadConfig({
      CHAT_REPOS: 'oc_team=acme/web,oc_ops=acme/ops,oc_team=acme/api,oc_team=ACME/web',
    });
    expect(config.CHAT_REPOS.get('oc_team')).toEqual(['acme/web', 'acme/api']);
    expect(config.CHAT_REPOS.get('oc_ops')).toEqual(['acme/ops']);
  });

  it('issue 31: a name in a card whose author may not steer the ticket — an outsider in its chat, a person in another chat — never chooses its repository', async () => {
    const ticket = await open(feishuDraft('please fix the footer', 'oc_team'));
    await attach(
      ticket,
      feishuDraft('no, do it in acme/api', 'oc_team', { ...ALICE, id: 'ou_eve', role: 'not_allowed' }),
    );
    await attach(ticket, feishuDraft('acme/api is where it lives', 'oc_other'), 'from another chat');
    expect(await chooseRepo(app.ctx, ticket)).toEqual({
      repo: 'acme/web',
      why: 'the chat’s default repository (bound: acme/web, acme/api)',
    });
    await attach(ticket, feishuDraft('sorry, it is in acme/api', 'oc_team'));
    expect((await chooseRepo(app.ctx, ticket)).repo).toBe('acme/api');
    expect(gh.calls).toEqual([]);
  });

  it('issue 31: a GitHub ticket stays in its repository whatever a writer’s card names', async () => {
    const ticket = await open(githubDraft('please fix this', 'acme/web', 'ada'));
    await attach(ticket, githubDraft('actually, work in evil/secret', 'acme/web', 'ada'));
    expect((await chooseRepo(app.ctx, ticket)).repo).toBe('acme/web');
    expect(await mayWorkIn(app.ctx, ticket, 'ACME/web')).toBe(true);
    expect(await mayWorkIn(app.ctx, ticket, 'evil/secret')).toBe(false);
    expect(gh.calls).toEqual([]);
  });

  it('issue 31: a Feishu ticket may work only in its chat’s bound repositories; the panel’s local chat is the operator’s', async () => {
    const feishu = await open(feishuDraft('please fix the footer', 'oc_team'));
    expect(await mayWorkIn(app.ctx, feishu, 'acme/api')).toBe(true);
    expect(await mayWorkIn(app.ctx, feishu, 'evil/secret')).toBe(false);
    const lonely = await open(feishuDraft('please fix the footer', 'oc_lonely'));
    expect(await mayWorkIn(app.ctx, lonely, 'acme/web')).toBe(false);
    expect((await chooseRepo(app.ctx, lonely)).why).toMatch(/no repository bound/);
    const local = await open(localMessage('please fix evil/secret', { chat: 'lobby' }));
    expect(await mayWorkIn(app.ctx, local, 'evil/secret')).toBe(true);
  });
});
