import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEntry } from '../../../src/cards/event-fate.ts';
import { readEvents } from '../../../src/cards/event-log.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { groupMention, messageEvent, p2pMessage, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { call, TOKEN } from '../api/client.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from '../feishu/harness.ts';

const SECRET = 'events-inbox-webhook-secret';

/** The inbox as the panel reads it: `GET /api/events` under the admin token. */
async function inbox(app: TestApp, query = ''): Promise<EventEntry[]> {
  const res = await call(app, 'GET', `/events${query ? `?${query}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.events as EventEntry[];
}

/** The entry `id`, waited for until its fate is one of `fates`. */
function entry(app: TestApp, id: string, ...fates: EventEntry['fate'][]): Promise<EventEntry> {
  return waitFor(
    async () => (await inbox(app)).find((e) => e.id === id && fates.includes(e.fate)),
    `inbox entry ${id} as ${fates.join('/')}`,
  );
}

describe('issue 33 item 2: the events inbox, through signed GitHub webhooks', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  beforeEach(async () => {
    gh = await startFakeGitHub({ botLogin: 'switchyard-bot', token: 'ghp_test' });
    app = await startTestApp({
      ADMIN_TOKEN: TOKEN,
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_TOKEN: 'ghp_test',
      GITHUB_API_URL: gh.url,
      GITHUB_BOT_LOGIN: 'switchyard-bot',
    });
  });
  afterEach(async () => {
    await app?.close();
    await gh?.close();
  });

  const send = (event: string, payload: unknown, deliveryId?: string) =>
    sendGitHubEvent(app.url, event, payload, { secret: SECRET, ...(deliveryId ? { deliveryId } : {}) });
  const cardOf = async (res: Response) => ((await res.json()) as { card: string }).card;

  it('opened T…, then a comment on the same issue attached to it, naming the explicit reference', async () => {
    const first = await cardOf(
      await send('issue_comment', P.mentionComment({ number: 21, commentId: 2101 })),
    );
    const opened = await entry(app, first, 'opened');
    expect(opened).toMatchObject({ channel: 'github', repo: 'acme/widgets', person: 'ada', cardId: first });
    const ticket = opened.tickets?.[0];
    expect(ticket).toMatch(/^T\d+$/);
    const body = 'Also the logout page';
    const second = await cardOf(
      await send('issue_comment', P.mentionComment({ number: 21, commentId: 2102, body })),
    );
    const attached = await entry(app, second, 'attached');
    expect(attached.tickets).toEqual([ticket]);
    expect(attached.reason).toBe(`${ticket}: explicit reference gh:acme/widgets#21`);
  });

  it("ignored: the bot's own comment, and an action no parser handles (with why)", async () => {
    const own = await cardOf(
      await send(
        'issue_comment',
        P.mentionComment({ author: 'switchyard-bot', body: 'On it', commentId: 2201 }),
      ),
    );
    expect(await entry(app, own, 'ignored')).toMatchObject({
      reason: 'our own event (R-A2)',
      person: 'switchyard-bot',
    });
    const deleted = { ...P.mentionComment({ commentId: 2202 }), action: 'deleted' };
    expect((await send('issue_comment', deleted, 'deleted-2202')).status).toBe(202);
    const edge = (await inbox(app, 'fate=ignored')).find((e) => e.kind === 'issue_comment.deleted');
    expect(edge).toMatchObject({
      reason: 'not handled: issue_comment.deleted',
      repo: 'acme/widgets',
      person: 'ada',
    });
    expect(edge?.cardId).toBeUndefined();
  });

  it('refused: an author who may not steer, and one whose GitHub permission check failed (no longer without trace)', async () => {
    gh.setPermission('acme/widgets', 'mallory', 'read');
    const reader = await cardOf(
      await send('issue_comment', P.mentionComment({ author: 'mallory', number: 31, commentId: 3101 })),
    );
    expect((await entry(app, reader, 'refused')).reason).toBe(
      'author may not start work (R-A5): mallory has permission "read" on acme/widgets, not write',
    );
    gh.failNext({ method: 'GET', path: /\/collaborators\/eve\/permission$/, status: 500, times: 20 });
    const unknown = await cardOf(
      await send('issue_comment', P.mentionComment({ author: 'eve', number: 32, commentId: 3201 })),
    );
    const refused = await entry(app, unknown, 'refused');
    expect(refused.reason).toContain('the GitHub permission check for eve on acme/widgets failed');
    // The panel's filters: fate and person together find exactly this one.
    const found = await inbox(app, 'fate=refused&person=EVE&repo=acme/widgets&channel=github');
    expect(found.map((e) => e.id)).toEqual([unknown]);
    expect(await inbox(app, 'channel=feishu')).toEqual([]);
  });

  it('refused: a webhook whose signature does not match shows once, with why, and nothing of its body', async () => {
    const res = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment(), {
      secret: SECRET,
      tamper: true,
    });
    expect(res.status).toBe(401);
    const [sig] = await inbox(app, 'fate=refused');
    expect(sig).toMatchObject({ channel: 'github', kind: 'webhook' });
    expect(sig?.reason).toContain('signature check failed');
    expect(sig?.person).toBeUndefined();
  });

  it('duplicate: the same delivery twice is one card and one duplicate entry beside it', async () => {
    const payload = P.mentionComment({ author: 'switchyard-bot', body: 'Done', commentId: 4101 });
    const first = await send('issue_comment', payload, 'delivery-4101');
    const again = await send('issue_comment', payload, 'delivery-4101');
    expect(await again.json()).toMatchObject({ status: 'duplicate' });
    const card = await cardOf(first);
    const dup = await entry(app, `dup-${card}`, 'duplicate');
    expect(dup).toMatchObject({ cardId: card, reason: `redelivery: the same delivery as card ${card}` });
    expect((await entry(app, card, 'ignored')).fate).toBe('ignored');
    expect((await inbox(app, 'fate=duplicate')).map((e) => e.id)).toEqual([`dup-${card}`]);
  });

  it('pages newest first with a cursor, and refuses an unknown fate', async () => {
    for (const n of [1, 2, 3])
      await send(
        'issue_comment',
        { ...P.mentionComment({ commentId: 5100 + n }), action: 'deleted' },
        `page-${n}`,
      );
    const first = await readEvents(app.ctx, {}, undefined, 2);
    expect(first.events).toHaveLength(2);
    const rest = await readEvents(app.ctx, {}, first.next, 2);
    expect(rest.events).toHaveLength(1);
    expect(rest.next).toBeUndefined();
    const all = [...first.events, ...rest.events];
    expect(new Set(all.map((e) => e.id)).size).toBe(3);
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort((a, b) => b - a));
    expect((await call(app, 'GET', '/events?fate=lost')).status).toBe(400);
    // A cursor that is no page's next would give the first page again: it is refused instead.
    for (const cursor of ['abc', '-1', '1e400', '12', '12:', ':x'])
      expect((await call(app, 'GET', `/events?cursor=${encodeURIComponent(cursor)}`)).status, cursor).toBe(
        400,
      );
    expect((await call(app, 'GET', `/events?cursor=${encodeURIComponent(first.next ?? '')}`)).status).toBe(
      200,
    );
    expect((await call(app, 'GET', '/events', { token: null })).status).toBe(401);
  });
});

describe('issue 33 item 2: the events inbox, through signed Feishu webhooks', () => {
  let h: FeishuHarness;
  const send = (event: unknown) => sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY });
  beforeEach(async () => {
    h = await startFeishuHarness({ ADMIN_TOKEN: TOKEN, ALLOWED_USERS: 'feishu:ou_alice' });
  });
  afterEach(() => h.close());

  it('ignored: group chatter without a mention; refused: someone not on the allow-lists', async () => {
    const chatter = messageEvent({
      text: 'lunch?',
      chatType: 'group',
      chatId: 'oc_team',
      senderOpenId: 'ou_alice',
    });
    expect((await send(chatter)).status).toBe(200);
    const ignored = await waitFor(
      async () => (await inbox(h.app, 'channel=feishu&fate=ignored')).find((e) => e.chat === 'oc_team'),
      'the chatter entry',
    );
    expect(ignored).toMatchObject({ person: 'ou_alice', reason: 'not handled: group chatter' });
    const outsider = p2pMessage('delete the repo', { senderOpenId: 'ou_mallory', messageId: 'om_m1' });
    await send(outsider);
    const refused = await waitFor(
      async () => (await inbox(h.app, 'fate=refused&person=ou_mallory')).at(0),
      'the refused entry',
    );
    expect(refused.reason).toBe('author may not start work (R-A5): not on the allow-lists');
    const allowed = groupMention('hello', h.feishu.bot.openId, {
      senderOpenId: 'ou_alice',
      chatId: 'oc_team',
    });
    await send(allowed);
    expect((await inbox(h.app, 'chat=oc_team')).every((e) => e.chat === 'oc_team')).toBe(true);
  });
});
