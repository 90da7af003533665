import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostText } from '../../src/i18n/host-text.ts';
import { setChatRepo } from '../../src/router/chat-repos.ts';
import { getTicket } from '../../src/tickets/ticket-store.ts';
import { executorFlow, makeBareRepo, startWorld, type World } from '../integration/executor/harness.ts';
import { onlyTicket } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../kit/fake-feishu.ts';
import { text, toolCalls } from '../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent } from '../kit/feishu-webhook.ts';
import { cardsIn, lastToolResults, openAll, roleOf } from '../kit/scripted-model.ts';

const ENCRYPT_KEY = 'chat-repo-binding-key-0123';
const ack = (card: string) => toolCalls(['reply', { to: card, text: `On it (${card}).` }]);

/**
 * Issue 31: a Feishu chat reaches only the repositories bound to it. Any member could name any
 * `owner/name` the token or App installation reaches, and the executor cloned, read and pushed it.
 */
describe('issue 31: a chat reaches only its repositories', () => {
  let w: World;
  let feishu: FakeFeishu;
  let root: string;
  let n = 0;

  beforeEach(async () => {
    feishu = await startFakeFeishu();
    w = await startWorld({
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_DOMAIN: feishu.url,
      FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
      FEISHU_VERIFICATION_TOKEN: 'verify-token',
      CHAT_REPOS: 'oc_team=acme/web',
      SETTINGS_ADMINS: 'feishu:ou_admin',
    });
    // A private repository the token reaches, served over git like a real one.
    root = mkdtempSync(join(tmpdir(), 'sy-foreign-'));
    w.gh.serveGit('evil/secret', makeBareRepo(root, { 'salaries.csv': 'ada,1000000\n' }).bare);
    w.gh.addIssue('evil/secret', { title: 'private', body: 'the salary table' });
  });
  afterEach(async () => {
    await w.close();
    await feishu.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A mention of the bot in `chat` by `sender`; its message id. */
  async function mention(text: string, sender: string, chat = 'oc_team'): Promise<string> {
    const messageId = `om_bind_${++n}_${Date.now().toString(36)}`;
    const event = groupMention(text, feishu.bot.openId, { senderOpenId: sender, messageId, chatId: chat });
    const res = await sendFeishuEvent(`${w.app.url}/webhooks/feishu`, event, { encryptKey: ENCRYPT_KEY });
    expect(res.status).toBe(200);
    return messageId;
  }

  const foreignCalls = () => w.gh.calls.filter((c) => c.path.toLowerCase().includes('evil/secret'));

  it('issue 31: a foreign repository named in a Feishu chat is never asked about, cloned, read or pushed; the person gets one polite refusal naming who can bind it', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['list_files', {}]),
      () =>
        toolCalls(
          ['write_file', { path: 'x.txt', content: 'x' }],
          ['read_github', { what: 'issue', repo: 'evil/secret', number: 1 }],
        ),
    ]);
    const messageId = await mention('please fix the login in evil/secret', 'ou_mallory');
    await flow.done();
    expect(flow.results[1]?.[0]).toMatch(/no checkout: evil\/secret .*is not bound to this chat/);
    expect(flow.results[2]?.[0]).toMatch(/no checkout: evil\/secret .*is not bound to this chat/);
    expect(flow.results[2]?.[1]).toMatch(/refused: evil\/secret is not a repository of this ticket/);
    expect(foreignCalls()).toEqual([]);
    const refusal = hostText('en', 'chat-repo.unbound', {
      repos: 'evil/secret',
      bound: 'acme/web',
      example: 'evil/secret',
    });
    expect(refusal).toMatch(/settings admin.*\/repo evil\/secret.*operator in the panel’s Setup/);
    const refusals = () => feishu.messages.filter((m) => m.parentId === messageId && m.text === refusal);
    await waitFor(() => refusals().length > 0, 'the refusal');
    await new Promise((r) => setTimeout(r, 500));
    expect(refusals()).toHaveLength(1);
    expect((await getTicket(w.app.ctx, await onlyTicket(w.app.ctx)))?.repo).toBeUndefined();
    expect(foreignCalls()).toEqual([]);
  });

  it('issue 31: a repository bound to the chat is worked in when named, and by default when none is named', async () => {
    const flow = executorFlow(w.llm, [(_r, card) => ack(card), () => toolCalls(['list_files', {}])]);
    await mention('please fix the login page', 'ou_alice');
    await flow.done();
    expect(flow.results[1]?.join()).toContain('src/login.ts');
    expect((await getTicket(w.app.ctx, await onlyTicket(w.app.ctx)))?.repo).toBe('acme/web');
    expect(feishu.messages.some((m) => /won’t touch/.test(m.text ?? ''))).toBe(false);
  });

  it('issue 31: unbinding a repository stops the chat’s ticket there — its recorded checkout and read_github are refused', async () => {
    await setChatRepo(w.app.ctx, 'oc_team', 'evil/secret');
    const results: string[][] = [];
    let step = 0;
    w.llm.respond(async (req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (step > 0) results.push(lastToolResults(req));
      step++;
      if (step === 1) return ack(cardsIn(req)[0] ?? '');
      if (step === 2) return toolCalls(['list_files', {}]);
      if (step === 3) {
        // The operator unbinds it in the panel while the ticket works there.
        await setChatRepo(w.app.ctx, 'oc_team', undefined);
        return toolCalls(['list_files', {}], ['read_github', { what: 'issue', number: 1 }]);
      }
      return text('Done for now.');
    });
    await mention('please fix the salaries in evil/secret', 'ou_alice');
    await waitFor(() => results.length >= 3, 'the executor flow', 30_000);
    expect(results[1]?.join()).toContain('salaries.csv');
    expect(results[2]?.[0]).toMatch(/no checkout: evil\/secret is not bound to this ticket's chat any more/);
    expect(results[2]?.[1]).toMatch(/refused: evil\/secret is not a repository of this ticket/);
    expect(w.gh.calls.filter((c) => c.path.includes('/repos/evil/secret/issues'))).toEqual([]);
  });

  it('issue 31: binding is for settings admins — a member’s /repo is refused, naming who can; an admin binds, and the chat then works there', async () => {
    const asked = await mention('/repo evil/secret', 'ou_mallory');
    await waitFor(() => feishu.messages.find((m) => m.parentId === asked), 'the refusal');
    expect(feishu.messages.find((m) => m.parentId === asked)?.text).toBe(hostText('en', 'chat-repo.refused'));
    expect(hostText('en', 'chat-repo.refused')).toMatch(/settings admin.*operator in the panel’s Setup/);
    const bound = await mention('/repo evil/secret', 'ou_admin');
    await waitFor(() => feishu.messages.find((m) => m.parentId === bound), 'the confirmation');
    expect(feishu.messages.find((m) => m.parentId === bound)?.text).toBe(
      hostText('en', 'chat-repo.set', { repo: 'evil/secret' }),
    );
    const flow = executorFlow(w.llm, [(_r, card) => ack(card), () => toolCalls(['list_files', {}])]);
    await mention('please fix the salaries in evil/secret', 'ou_mallory');
    await flow.done();
    expect(flow.results[1]?.join()).toContain('salaries.csv');
  });
});
