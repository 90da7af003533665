import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { startFeishuLongConnection } from '../../../src/channels/feishu/ws/start-long-connection.ts';
import { loadConfig } from '../../../src/config.ts';
import { metricsText, startTestApp, waitFor } from '../../kit/app.ts';
import { cardAction, groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness, storedCardIds } from './harness.ts';

/** Cards stored for one Feishu event id. */
async function cardsOf(h: FeishuHarness, eventId: string) {
  const cards = await Promise.all((await storedCardIds(h.app)).map((id) => loadCard(h.app.ctx, id)));
  return cards.filter((c) => c?.eventId === eventId);
}

describe('issue 16: Feishu events over the long connection (the SDK WSClient against a fake endpoint)', () => {
  let h: FeishuHarness;
  let ws: ReturnType<typeof startFeishuLongConnection>;
  beforeAll(async () => {
    // No PUBLIC_URL and no FEISHU_EVENT_MODE: the long connection is the default.
    h = await startFeishuHarness({ FEISHU_WS_LEASE_MS: '4000' }, { workers: false });
    expect(h.app.ctx.config.feishuEventMode).toBe('ws');
    ws = startFeishuLongConnection(h.app.ctx);
    await waitFor(() => h.feishu.longConnection.openCount() === 1, 'the long connection', 20_000);
  }, 30_000);
  afterAll(async () => {
    await ws?.stop();
    await h.close();
  });

  it('R-A1: a message becomes one card, also when Feishu delivers the same event again', async () => {
    const event = groupMention('please fix acme/app#31', h.feishu.bot.openId, { messageId: 'om_ws_1' });
    const first = await h.feishu.longConnection.deliver(event);
    expect(first?.code).toBe(200);
    const again = await h.feishu.longConnection.deliver(event);
    expect(again?.code).toBe(200);
    const cards = await cardsOf(h, event.header.event_id);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({
      source: 'feishu',
      kind: 'message',
      request: true,
      text: 'please fix acme/app#31',
      origin: { chatId: 'oc_team', messageId: 'om_ws_1' },
      refs: [{ type: 'issue', repo: 'acme/app', number: 31 }],
    });
  });

  it('R-A1: a card action becomes one card; its answer rides in the acknowledgement', async () => {
    const press = cardAction({ value: { action: 'pause' }, openMessageId: 'om_ws_status' });
    const ack = await h.feishu.longConnection.deliver(press);
    expect(ack).toMatchObject({ code: 200, data: {} });
    await h.feishu.longConnection.deliver(press);
    const cards = await cardsOf(h, press.header.event_id);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ kind: 'card_action', action: 'button:pause', request: false });
    // R-A5: someone outside the allow-list gets the polite toast back through the same frame.
    const outsider = await startFeishuHarness({ ALLOWED_USERS: 'feishu:ou_boss' }, { workers: false });
    const held = startFeishuLongConnection(outsider.app.ctx);
    try {
      await waitFor(() => outsider.feishu.longConnection.openCount() === 1, 'the second deployment', 20_000);
      const refused = await outsider.feishu.longConnection.deliver(cardAction());
      expect(refused?.data).toMatchObject({ toast: { type: 'warning' } });
    } finally {
      await held?.stop();
      await outsider.close();
    }
  }, 30_000);

  it('R-A1: an event split over three frames is reassembled into one card', async () => {
    const long = `${'a long request '.repeat(400)}acme/app#32`;
    const event = groupMention(long, h.feishu.bot.openId);
    expect((await h.feishu.longConnection.deliver(event, { parts: 3 }))?.code).toBe(200);
    const cards = await cardsOf(h, event.header.event_id);
    expect(cards).toHaveLength(1);
  });

  it('R-A1: the same event by webhook and by long connection is one card (one dedupe for both paths)', async () => {
    const event = groupMention('both ways', h.feishu.bot.openId);
    expect((await sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY })).status).toBe(200);
    expect((await h.feishu.longConnection.deliver(event))?.code).toBe(200);
    expect(await cardsOf(h, event.header.event_id)).toHaveLength(1);
  });

  it('issue 16: the client keeps the connection alive with pings at the interval the endpoint set (2 s)', async () => {
    const before = h.feishu.longConnection.pings();
    await waitFor(() => h.feishu.longConnection.pings() > before, 'a ping', 8000);
  });

  it('issue 16: the connection comes back after Feishu drops it, still one connection', async () => {
    const before = h.feishu.longConnection.connections.length;
    h.feishu.longConnection.dropAll();
    await waitFor(
      () =>
        h.feishu.longConnection.openCount() === 1 &&
        h.feishu.longConnection.connections.length === before + 1,
      'the reconnection',
      20_000,
    );
    await waitFor(
      async () => /^switchyard_feishu_ws_open 1$/m.test(await metricsText(h.app.url)),
      'the open gauge back at 1',
    );
    const event = groupMention('after the drop', h.feishu.bot.openId);
    expect((await h.feishu.longConnection.deliver(event))?.code).toBe(200);
    expect(await cardsOf(h, event.header.event_id)).toHaveLength(1);
    expect(h.feishu.longConnection.maxOpen()).toBe(1);
  }, 30_000);

  it('issue 16: a wrong app secret is refused at the endpoint and no socket opens', async () => {
    const bad = await startFeishuHarness({ FEISHU_APP_SECRET: 'not-the-secret' }, { workers: false });
    const held = startFeishuLongConnection(bad.app.ctx);
    try {
      await waitFor(() => bad.feishu.callsTo(/^\/callback\/ws\/endpoint$/).length > 0, 'the endpoint call');
      await new Promise((r) => setTimeout(r, 500));
      expect(bad.feishu.longConnection.connections).toEqual([]);
      expect(held?.holding()).toBe(true);
    } finally {
      await held?.stop();
      await bad.close();
    }
  });

  it('issue 16: without a public URL Feishu starts with no encrypt key; the webhook then says where events come', async () => {
    const app = await startTestApp(
      { FEISHU_APP_ID: h.feishu.appId, FEISHU_APP_SECRET: h.feishu.appSecret, FEISHU_DOMAIN: h.feishu.url },
      { workers: false },
    );
    try {
      expect(app.ctx.config.feishuEnabled).toBe(true);
      const res = await sendFeishuEvent(
        `${app.url}/webhooks/feishu`,
        groupMention('hi', h.feishu.bot.openId),
      );
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: expect.stringMatching(/long connection/) });
    } finally {
      await app.close();
    }
  });

  it('issue 16: an app id the SDK would ignore without a word (not cli_ + 16 hex digits) competes for no lease', async () => {
    // Issue 32: the configuration refuses such an id at start-up; a context built around it anyway
    // (a config object not from loadConfig) still opens no connection.
    expect(() => loadConfig({ FEISHU_APP_ID: 'cli_fake_app', FEISHU_APP_SECRET: 's' })).toThrow(
      /FEISHU_APP_ID: not a Feishu app id: cli_ and 16 hex digits/,
    );
    const odd = await startFeishuHarness({}, { workers: false });
    try {
      const ctx = { ...odd.app.ctx, config: { ...odd.app.ctx.config, FEISHU_APP_ID: 'cli_fake_app' } };
      expect(startFeishuLongConnection(ctx)).toBeUndefined();
      expect(await odd.app.ctx.redis.exists(odd.app.ctx.keys.feishuWsLease())).toBe(0);
    } finally {
      await odd.close();
    }
  });
});
