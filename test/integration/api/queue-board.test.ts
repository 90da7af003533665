import { Queue } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { QUEUE_NAMES } from '../../../src/store/queues.ts';
import { BOARD_CSP } from '../../../src/web/panel/queue-board/board-page.ts';
import { waitFor } from '../../kit/app.ts';
import { ownedPrefixes } from '../../kit/redis.ts';
import { type FeishuHarness, startFeishuHarness } from '../feishu/harness.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const TOKEN = 'queue-board-admin-token-0123456789abcdef';
const BOARD = '/panel/queues/board';

/**
 * Issue 17: bull-board behind the panel's sign-in. Who may reach it, which writes it takes (from
 * this origin only), which actions it refuses, and that it shows this deployment's queues only.
 */
describe('issue 17: the queue board (bull-board)', () => {
  let h: FeishuHarness;
  let cookie = '';
  beforeEach(async () => {
    h = await startFeishuHarness({ ADMIN_TOKEN: TOKEN });
    const res = await fetch(`${h.app.url}/panel/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterEach(() => h.close());

  const origin = () => h.app.url;
  const board = (path: string, init: RequestInit = {}) =>
    fetch(`${h.app.url}${BOARD}${path}`, { redirect: 'manual', ...init });
  /** A browser's write from the panel's own page: the cookie and this origin. */
  const sameOrigin = (method: string) => ({ method, headers: { cookie, origin: origin() } });

  /** An outbox delivery Feishu refused for good (bot not in the chat): its job id, failed. */
  async function failedDelivery(key: string, text = 'The build is green again.'): Promise<string> {
    h.feishu.fail(
      1,
      { status: 400, code: 230002, msg: 'Bot/User can NOT be out of the chat.' },
      /\/im\/v1\/messages/,
    );
    await enqueueEffect(h.app.ctx, { key, effect: { op: 'feishu.send', chatId: 'oc_board', text } });
    const id = outboxJobId(key);
    await waitFor(
      async () => (await (await h.app.ctx.queues.outbox.getJob(id))?.getState()) === 'failed',
      'the failed delivery',
    );
    return id;
  }
  const stateOf = async (id: string) => (await h.app.ctx.queues.outbox.getJob(id))?.getState();
  const sent = (text: string) => h.feishu.messages.filter((m) => m.text === text);

  it('issue 17: signed out, its pages lead to the sign-in and its API answers 401; a forged cookie is no better', async () => {
    for (const path of ['', '/queue/outbox', '/static/js/none.js']) {
      const res = await board(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location')).toBe('/panel/?signin=required#/queues');
    }
    expect((await board('/api/queues')).status).toBe(401);
    const forged = { cookie: 'sy_panel=v1.abc.9999999999999.x' };
    expect((await board('', { headers: forged })).status).toBe(303);
    expect((await board('/api/queues', { headers: forged })).status).toBe(401);
    const id = await failedDelivery('board:signed-out');
    const put = await board(`/api/queues/outbox/${id}/retry`, {
      method: 'PUT',
      headers: { origin: origin() },
    });
    expect(put.status).toBe(401);
    expect(await stateOf(id)).toBe('failed');
  });

  it('issue 17: signed in, it lists every queue of this deployment, none of another prefix', async () => {
    const other = new Queue(QUEUE_NAMES.outbox, {
      connection: h.app.ctx.redis,
      prefix: `${ownPrefix()}:q`,
    });
    await other.add('feishu.send', { elsewhere: true });
    await failedDelivery('board:listed');
    const res = await board('/api/queues', { headers: { cookie } });
    expect(res.status).toBe(200);
    const { queues } = (await res.json()) as { queues: { name: string; counts: Record<string, number> }[] };
    expect(queues.map((q) => q.name).sort()).toEqual(Object.values(QUEUE_NAMES).sort());
    // This deployment's failed delivery shows; the other prefix's waiting job does not.
    expect(queues.find((q) => q.name === 'outbox')?.counts).toMatchObject({ failed: 1, waiting: 0 });
    await other.obliterate({ force: true });
    await other.close();
  });

  it('issue 17: its page asks nothing of another origin and needs no inline style (CSP self only)', async () => {
    const res = await board('', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(BOARD_CSP);
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    expect(html).not.toMatch(/\sstyle=|<style/);
    expect(html).toContain(`<base href="${BOARD}/"`);
    const css = html.match(/static\/css\/[\w.]+\.css/)?.[0];
    const sheet = await board(`/${css}`, { headers: { cookie } });
    expect(sheet.status).toBe(200);
    expect(await sheet.text()).not.toMatch(/@import|url\(["']?https?:/);
  });

  it('issue 17: a write with the cookie from another origin, another site or no origin at all is a 403; nothing retried', async () => {
    const id = await failedDelivery('board:cross-origin');
    const tries: Record<string, string>[] = [
      { cookie, origin: 'https://evil.example' },
      { cookie, origin: 'http://127.0.0.1:1' },
      { cookie, origin: 'null' },
      { cookie, 'sec-fetch-site': 'same-site' },
      { cookie, 'sec-fetch-site': 'cross-site', origin: origin() },
      { cookie },
    ];
    for (const headers of tries) {
      const res = await board(`/api/queues/outbox/${id}/retry`, { method: 'PUT', headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('cross_origin');
    }
    expect(await stateOf(id)).toBe('failed');
    expect(sent('The build is green again.')).toEqual([]);
  });

  it('issue 17: Retry from this origin delivers the refused message once; a second retry is refused (completed)', async () => {
    const id = await failedDelivery('board:retry', 'Deploy finished.');
    const res = await board(`/api/queues/outbox/${id}/retry`, sameOrigin('PUT'));
    expect(res.status).toBe(204);
    await waitFor(async () => (await stateOf(id)) === 'completed', 'the retried delivery');
    expect(sent('Deploy finished.')).toHaveLength(1);
    const again = await board(`/api/queues/outbox/${id}/retry`, sameOrigin('PUT'));
    expect(again.status).toBe(409);
    const all = await board('/api/queues/outbox/retry/completed', sameOrigin('PUT'));
    expect(all.status).toBe(409);
    expect(await stateOf(id)).toBe('completed');
    expect(sent('Deploy finished.')).toHaveLength(1);
  });

  it('issue 17: the admin bearer token works without an Origin (scripts); cleaning a failed job removes it', async () => {
    const id = await failedDelivery('board:bearer');
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const res = await board(`/api/queues/outbox/${id}/clean`, { method: 'PUT', headers: bearer });
    expect(res.status).toBe(204);
    expect(await h.app.ctx.queues.outbox.getJob(id)).toBeUndefined();
    const wrong = { authorization: `Bearer ${TOKEN.slice(0, -1)}x` };
    expect((await board('/api/queues', { headers: wrong })).status).toBe(401);
  });

  it('issue 17: adding, editing, emptying and obliterating are refused with the reason; the queue is untouched', async () => {
    const id = await failedDelivery('board:refused');
    const before = await h.app.ctx.queues.outbox.getJobCounts();
    const json = (method: string, body: unknown) => ({
      method,
      headers: { cookie, origin: origin(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const refused: [string, RequestInit][] = [
      ['/api/queues/outbox/add', json('POST', { name: 'feishu.send', data: { key: 'x' } })],
      [`/api/queues/outbox/${id}/update-data`, json('PATCH', { jobData: { key: 'x' } })],
      ['/api/queues/outbox/empty', sameOrigin('PUT')],
      ['/api/queues/outbox/obliterate', json('PUT', { force: true })],
      ['/api/queues/safety/job-schedulers/watchdog/remove', sameOrigin('PUT')],
      // Not on the panel's list of writes at all (as any route a later bull-board adds).
      [`/api/queues/outbox/${id}/remove-unprocessed-children`, sameOrigin('PUT')],
    ];
    for (const [path, init] of refused) {
      const res = await board(path, init);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { message: string }).message, path).toMatch(/refused by Switchyard/);
    }
    expect(await h.app.ctx.queues.outbox.getJobCounts()).toEqual(before);
    expect(await stateOf(id)).toBe('failed');
  });

  it('issue 17: a write body over the cap is a 413 before anything reads it', async () => {
    const res = await board('/api/queues/outbox/pause', {
      method: 'PUT',
      headers: { cookie, origin: origin(), 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(100_000) }),
    });
    expect(res.status).toBe(413);
    expect(await h.app.ctx.queues.outbox.isPaused()).toBe(false);
  });
});
