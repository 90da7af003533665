import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FAILED_TTL_SECONDS,
  NAME_TTL_SECONDS,
  UNREACHED_TTL_SECONDS,
} from '../../../src/channels/feishu/person-name-cache.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from './harness.ts';

const TOKEN = 'names-test-admin-token-0123456789abcdef';
const ALICE = 'ou_7d8a6e6df7621556ce0d21922b676706';

describe('issue 33 item 3: Feishu people by name on a ticket’s page, from the contact API, cached', () => {
  let h: FeishuHarness;
  let llm: FakeLlm;
  let seq = 0;
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    h = await startFeishuHarness({ ADMIN_TOKEN: TOKEN, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
  });
  afterEach(async () => {
    await h.close();
    await llm.close();
  });

  /** A request from `openId` in a chat of its own; the ticket it opened. */
  const ask = async (openId: string) => {
    const chatId = `oc_names_${++seq}`;
    const event = groupMention('please fix the export button', h.feishu.bot.openId, {
      senderOpenId: openId,
      chatId,
    });
    expect((await sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY })).status).toBe(200);
    return waitFor(async () => {
      const { tickets } = await (await api('/tickets')).json();
      return tickets.find((t: { owners: { requester: { id: string } } }) => t.owners.requester.id === openId)
        ?.id as string | undefined;
    }, 'the ticket');
  };
  const api = (path: string) =>
    fetch(`${h.app.url}/api${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const detail = async (id: string) => (await api(`/tickets/${id}`)).json();
  const lookUps = (openId: string) => h.feishu.callsTo(new RegExp(`^/open-apis/contact/v3/users/${openId}$`));
  const ttl = (openId: string) => h.app.ctx.redis.ttl(h.app.ctx.keys.feishuPersonName(openId));

  it('issue 33 item 3: the requester and the card’s author by their Feishu name, asked once and kept a day', async () => {
    h.feishu.contacts.add(ALICE, { name: 'Alice Zhang' });
    const ticket = await ask(ALICE);
    const first = await detail(ticket);
    expect(first.owners.requester).toEqual({ id: ALICE, name: 'Alice Zhang' });
    expect(first.cards[0].card.author).toMatchObject({ id: ALICE, name: 'Alice Zhang' });
    const [call, ...more] = lookUps(ALICE);
    expect(more).toHaveLength(0);
    expect(call?.query).toEqual({ user_id_type: 'open_id' });
    expect(call?.status).toBe(200);
    expect(await ttl(ALICE)).toBeGreaterThan(NAME_TTL_SECONDS - 60);
    // The page polls: the name comes from the cache, Feishu is not asked again.
    expect((await detail(ticket)).owners.requester.name).toBe('Alice Zhang');
    expect(lookUps(ALICE)).toHaveLength(1);
  });

  it('issue 33 item 3: an app without the contacts scope is refused (99991672): no name, the refusal kept ten minutes', async () => {
    h.feishu.contacts.add(ALICE, { name: 'Alice Zhang' });
    h.feishu.contacts.scope = false;
    const ticket = await ask(ALICE);
    expect((await detail(ticket)).owners.requester).toEqual({ id: ALICE });
    const [call] = lookUps(ALICE);
    expect(call?.status).toBe(400);
    const t = await ttl(ALICE);
    expect(t).toBeGreaterThan(FAILED_TTL_SECONDS - 60);
    expect(t).toBeLessThanOrEqual(FAILED_TTL_SECONDS);
    await detail(ticket);
    expect(lookUps(ALICE)).toHaveLength(1);
  });

  it('issue 33 item 3: a person outside the app’s contacts range (41050) or a name the app may not read: the open_id stays', async () => {
    const outsider = 'ou_0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f';
    const ticket = await ask(outsider);
    expect((await detail(ticket)).owners.requester).toEqual({ id: outsider });
    expect(lookUps(outsider)[0]?.status).toBe(400);

    // Granted the contacts scope but not the name field: Feishu answers the user without a name.
    h.feishu.contacts.add(ALICE, { name: 'Alice Zhang' });
    h.feishu.contacts.nameScope = false;
    const other = await ask(ALICE);
    expect((await detail(other)).owners.requester).toEqual({ id: ALICE });
    expect(lookUps(ALICE)[0]?.status).toBe(200);
  });

  it('issue 33 item 3: Feishu not reached: the page still answers at once, and asks again after a minute', async () => {
    const ticket = await ask(ALICE);
    h.feishu.fail(1, { hang: true }, /^\/open-apis\/contact\//);
    const started = Date.now();
    expect((await detail(ticket)).owners.requester).toEqual({ id: ALICE });
    expect(Date.now() - started).toBeLessThan(4000);
    // The look-up times out in the background (the client's 10 s) and is kept for a minute only.
    await waitFor(async () => (await ttl(ALICE)) > 0, 'the unreached look-up to be kept', 15_000);
    expect(await ttl(ALICE)).toBeLessThanOrEqual(UNREACHED_TTL_SECONDS);
  }, 30_000);
});
