import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { QUEUE_NAMES } from '../../../src/store/queues.ts';
import { type FeishuHarness, startFeishuHarness } from '../../integration/feishu/harness.ts';
import { waitFor } from '../../kit/app.ts';
import { TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, signIn } from './browser.ts';

/** The README tour's picture; rewritten only when `UPDATE_DOCS_SCREENSHOTS` is set. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-queue-board.png');

/**
 * Issue 17: bull-board behind the panel's sign-in, in headless Chromium against the real server,
 * workers and a fake Feishu that refuses a delivery for good (the bot is not in the chat).
 */
describe('issue 17: the queue board in the browser', () => {
  let h: FeishuHarness;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  /** Content-Security-Policy violations and requests to any other origin, as the page saw them. */
  const offences: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    expect(errors).toEqual([]);
  });
  beforeEach(async () => {
    h = await startFeishuHarness({ ADMIN_TOKEN: TOKEN });
    offences.length = 0;
    page = await newPage();
  }, 60_000);
  afterEach(async () => {
    await page?.context().close();
    await h?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 820 } });
    context.setDefaultTimeout(15_000);
    const p = await context.newPage();
    p.on('pageerror', (err) => errors.push(err.message));
    await context.exposeFunction('reportViolation', (what: string) => offences.push(what));
    p.on('request', (r) => {
      if (!r.url().startsWith(h.app.url) && !r.url().startsWith('data:')) offences.push(`request ${r.url()}`);
    });
    await p.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation: (s: string) => void }).reportViolation(
          `csp ${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`,
        ),
      );
    });
    return p;
  }

  /** An outbox delivery Feishu refused for good: its job id, once the job has failed. */
  async function failedDelivery(key: string, text: string): Promise<string> {
    h.feishu.fail(
      1,
      { status: 400, code: 230002, msg: 'Bot/User can NOT be out of the chat.' },
      /\/im\/v1\/messages/,
    );
    await enqueueEffect(h.app.ctx, { key, effect: { op: 'feishu.send', chatId: 'oc_ops', text } });
    const id = outboxJobId(key);
    await waitFor(async () => (await stateOf(id)) === 'failed', 'the failed delivery');
    return id;
  }
  const stateOf = async (id: string) => (await h.app.ctx.queues.outbox.getJob(id))?.getState();
  /** Requests the fake Feishu answered with a stored message carrying `text`. */
  const delivered = (text: string) => h.feishu.messages.filter((m) => m.text === text);

  it('issue 17: a refused delivery shows in bull-board with its error; clicking Retry there delivers it exactly once', {
    timeout: 90_000,
  }, async () => {
    const text = 'Nightly build is green again.';
    const id = await failedDelivery('board-e2e:retry', text);
    expect(delivered(text)).toEqual([]);
    await signIn(page, h.app.url, TOKEN);
    // The first page done loading: a nav click before that races it (the slower page lands last).
    await page.locator('#page[aria-busy="false"]').waitFor();
    await page.getByRole('link', { name: 'Queues' }).click();
    await page.locator('tr[data-queue="outbox"] td.bad', { hasText: '1' }).waitFor();
    await page.getByRole('link', { name: /Open the queue board/ }).click();
    await page.waitForURL(`${h.app.url}/panel/queues/board`);
    // Every queue of the deployment is on the board.
    const sidebar = page.locator('#bull-board-sidebar');
    for (const name of Object.values(QUEUE_NAMES))
      await sidebar.getByRole('link', { name, exact: true }).waitFor();
    await sidebar.getByRole('link', { name: 'outbox', exact: true }).click();
    await page.getByRole('link', { name: /^Failed/i }).click();
    const card = page.locator('[class*="card-"]', { hasText: id });
    await card.getByText(/UnrecoverableError: feishu\.send: HTTP 400 code 230002/).waitFor();
    // Issue 49: the board links back to the panel, in sight on every board page.
    const back = page.getByRole('link', { name: /Switchyard panel/ });
    expect(await back.isVisible()).toBe(true);
    expect(await back.getAttribute('href')).toBe('/panel/#/queues');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, '40-queue-board.png') });
    if (process.env.UPDATE_DOCS_SCREENSHOTS) copyFileSync(join(ARTIFACTS, '40-queue-board.png'), DOCS_SHOT);

    await card.locator('button:has(svg.lucide-refresh-cw)').click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await waitFor(async () => (await stateOf(id)) === 'completed', 'the retried delivery');
    expect(delivered(text)).toHaveLength(1);
    // Two requests reached Feishu for it: the refused one and the retried one.
    const sends = h.feishu
      .callsTo(/\/im\/v1\/messages$/)
      .filter((c) => JSON.stringify(c.body).includes('Nightly'));
    expect(sends.map((c) => c.status)).toEqual([400, 200]);
    // The job leaves the failed list on the page too.
    await card.waitFor({ state: 'detached' });
    expect(offences).toEqual([]);
    await back.click();
    await page.locator('tr[data-queue="outbox"]').waitFor();
    expect(new URL(page.url()).hash).toBe('#/queues');
  });

  it('issue 17: signed out, the board sends the browser to the sign-in and its API answers 401', async () => {
    await page.goto(`${h.app.url}/panel/queues/board/queue/outbox`);
    await page.getByLabel('Admin token').waitFor();
    expect(new URL(page.url()).pathname).toBe('/panel/');
    await page.getByText('Sign in to open the queue board.').waitFor();
    const res = await page.request.get(`${h.app.url}/panel/queues/board/api/queues`);
    expect(res.status()).toBe(401);
  });

  it('issue 17: a page of another origin cannot retry a job, even with the panel cookie sent along', async () => {
    const text = 'Release notes are ready.';
    const id = await failedDelivery('board-e2e:cross', text);
    await signIn(page, h.app.url, TOKEN);
    const retryUrl = `${h.app.url}/panel/queues/board/api/queues/outbox/${id}/retry`;
    // Same site (127.0.0.1), another port: the SameSite=Strict cookie does go along.
    const evil = await serve(
      `<!doctype html><form method="post" action="${retryUrl}"><button>Claim your prize</button></form>` +
        `<button id="put" onclick="fetch('${retryUrl}',{method:'PUT',credentials:'include'})` +
        `.then(r=>document.title='put '+r.status,e=>document.title='put blocked')">Put</button>`,
    );
    try {
      await page.goto(evil.url);
      await page.getByRole('button', { name: 'Put' }).click();
      await waitFor(async () => (await page.title()).startsWith('put'), 'the cross-origin PUT');
      expect(await page.title()).toBe('put blocked');
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url() === retryUrl),
        page.getByRole('button', { name: 'Claim your prize' }).click(),
      ]);
      expect(answer.status()).toBe(403);
      // Refused by the origin check, not for want of a session: the cookie was there.
      expect(await answer.json()).toMatchObject({ code: 'cross_origin' });
    } finally {
      await evil.close();
    }
    expect(await stateOf(id)).toBe('failed');
    expect(delivered(text)).toEqual([]);
  });
});

/** A page of another origin on loopback. */
async function serve(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
