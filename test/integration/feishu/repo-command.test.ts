import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseRepo } from '../../../src/executor/workspace/repo-choice.ts';
import { hostText } from '../../../src/i18n/host-text.ts';
import { getChatRepo, setChatRepo } from '../../../src/router/chat-repos.ts';
import type { Ticket } from '../../../src/tickets/ticket.ts';
import { waitFor } from '../../kit/app.ts';
import { groupMention, p2pMessage, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from './harness.ts';

/**
 * Issue 16: `/repo owner/name` sets a chat's default repository; issue 31: it binds the chat to it,
 * so only settings admins may (`/repo` alone, which shows it, is for anyone allowed, R-A5).
 */
describe('issue 16, 31: /repo owner/name in a chat', () => {
  let h: FeishuHarness;
  let n = 0;
  beforeAll(async () => {
    h = await startFeishuHarness({
      ALLOWED_USERS: 'feishu:ou_alice,feishu:ou_bob',
      SETTINGS_ADMINS: 'feishu:ou_alice',
    });
  });
  afterAll(() => h.close());

  /** Sends `text` as `sender` in `chat` (a mention in a group) and answers the bot's reply to it. */
  async function say(text: string, sender: string, chat: string): Promise<string | undefined> {
    const messageId = `om_repo_${++n}_${Date.now().toString(36)}`;
    const event = chat.startsWith('oc_dm')
      ? p2pMessage(text, { senderOpenId: sender, messageId, chatId: chat })
      : groupMention(text, h.feishu.bot.openId, { senderOpenId: sender, messageId, chatId: chat });
    const res = await sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY });
    expect(res.status).toBe(200);
    const reply = await waitFor(
      () => h.feishu.messages.find((m) => m.parentId === messageId),
      `the answer to ${text}`,
    );
    return reply.text;
  }

  it('issue 31: a settings admin binds it, is told so through the outbox, and the executor then works there', async () => {
    const chat = `oc_dm_alice_${Date.now().toString(36)}`;
    expect(await say('/repo acme/api', 'ou_alice', chat)).toBe(
      hostText('en', 'chat-repo.set', { repo: 'acme/api' }),
    );
    expect(await getChatRepo(h.app.ctx, chat)).toBe('acme/api');
    expect(await say('/repo', 'ou_alice', chat)).toBe(
      hostText('en', 'chat-repo.shown', { repos: 'acme/api' }),
    );
    const ticket = { id: `T-none-${n}`, origin: { source: 'feishu', chatId: chat } } as unknown as Ticket;
    expect(await chooseRepo(h.app.ctx, ticket)).toEqual({
      repo: 'acme/api',
      why: 'the chat’s default repository (bound: acme/api)',
    });
  });

  it('R-A5: someone not allowed is refused in one sentence and the chat keeps its repository', async () => {
    const chat = `oc_team_${Date.now().toString(36)}`;
    await setChatRepo(h.app.ctx, chat, 'acme/web');
    expect(await say('/repo evil/fork', 'ou_mallory', chat)).toBe(hostText('en', 'chat-repo.refused'));
    expect(await getChatRepo(h.app.ctx, chat)).toBe('acme/web');
  });

  it('issue 31: an allowed person who is no settings admin sees the binding but cannot change it; the refusal names who can', async () => {
    const chat = `oc_team_bob_${Date.now().toString(36)}`;
    await setChatRepo(h.app.ctx, chat, 'acme/web');
    const refused = await say('/repo acme/other', 'ou_bob', chat);
    expect(refused).toBe(hostText('en', 'chat-repo.refused'));
    expect(refused).toMatch(/settings admin/);
    expect(await getChatRepo(h.app.ctx, chat)).toBe('acme/web');
    expect(await say('/repo', 'ou_bob', chat)).toBe(hostText('en', 'chat-repo.shown', { repos: 'acme/web' }));
  });

  it('a name that is not owner/name is refused with the form to use, and changes nothing', async () => {
    const chat = `oc_dm_alice_bad_${Date.now().toString(36)}`;
    for (const bad of ['/repo acme', '/repo acme/api/extra', '/repo -acme/api', '/repo acme/..'])
      expect(await say(bad, 'ou_alice', chat)).toBe(hostText('en', 'chat-repo.invalid'));
    expect(await getChatRepo(h.app.ctx, chat)).toBeUndefined();
    expect(await say('/repo', 'ou_alice', chat)).toBe(hostText('en', 'chat-repo.none'));
  });
});
